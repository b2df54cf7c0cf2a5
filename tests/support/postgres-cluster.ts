import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port.ts";

/**
 * A throw-away PostgreSQL cluster for the database suite: initdb into a temp
 * folder owned by the postgres user, started on a free loopback port, trust
 * auth, removed on stop. Needs Debian's postgresql (scripts/system-deps.sh).
 */
export interface PostgresCluster {
  url: string;
  stop(): void;
}

function pgBin(name: string): string {
  const base = "/usr/lib/postgresql";
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const candidate = path.join(base, v, "bin", name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(
    `PostgreSQL's ${name} was not found under ${base}: install Debian's postgresql (scripts/system-deps.sh)`,
  );
}

function asPostgres(args: string[]): void {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ["runuser", ["-u", "postgres", "--", ...args]] : [args[0], args.slice(1)];
  const result = spawnSync(cmd, argv, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * `password`: connections over TCP need it (SCRAM), as a real host's do, for the tests that check
 * which passwords get in (database hosts); the superuser `postgres` has it. Without it, trust.
 */
export async function startPostgres(options: { password?: string } = {}): Promise<PostgresCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-pg-"));
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, "data");
  fs.mkdirSync(data);
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  const port = await freePort();
  const auth = ["-A", "trust"];
  if (options.password) {
    const pwfile = path.join(dir, "pwfile");
    fs.writeFileSync(pwfile, `${options.password}\n`, { mode: 0o644 });
    auth.splice(0, 2, "--auth-local=trust", "--auth-host=scram-sha-256", `--pwfile=${pwfile}`);
  }
  asPostgres([pgBin("initdb"), "-D", data, "-U", "postgres", ...auth, "--no-sync", "-E", "UTF8"]);
  asPostgres([
    pgBin("pg_ctl"),
    "-D",
    data,
    "-l",
    path.join(dir, "log"),
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    "-w",
    "start",
  ]);
  return {
    url: options.password
      ? `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/postgres`
      : `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        asPostgres([pgBin("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
