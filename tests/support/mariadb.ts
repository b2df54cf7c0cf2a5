import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port.ts";

/**
 * A throw-away MariaDB server (Debian's mariadb-server, scripts/system-deps.sh) for the tests that
 * need MySQL: database hosts, the import from Pterodactyl or Pelican. A fresh data folder on a
 * free loopback port; `root` with no password, reachable over TCP only from 127.0.0.1; removed on
 * stop. `url` is `mysql://root@127.0.0.1:PORT`.
 */
export interface MariaDb {
  host: string;
  port: number;
  url: string;
  stop(): Promise<void>;
}

function binary(candidates: string[]): string {
  for (const candidate of candidates) if (fs.existsSync(candidate)) return candidate;
  throw new Error(
    `MariaDB was not found (${candidates.join(", ")}): install Debian's mariadb-server (scripts/system-deps.sh)`,
  );
}

async function reachable(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function startMariaDb(): Promise<MariaDb> {
  const installDb = binary(["/usr/bin/mariadb-install-db", "/usr/bin/mysql_install_db"]);
  const server = binary(["/usr/sbin/mariadbd", "/usr/sbin/mysqld"]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-mariadb-"));
  const data = path.join(dir, "data");
  fs.mkdirSync(data);
  // A temporary folder of its own: a MariaDB that starts removes the `#sql*` temporary tables it
  // finds in its tmpdir, which, shared, were those of another test file's install beside it.
  const tmp = path.join(dir, "tmp");
  fs.mkdirSync(tmp);
  const root = process.getuid?.() === 0;
  // As root the server runs as Debian's mysql user, which must own its folder and socket.
  const user = root ? "mysql" : os.userInfo().username;
  if (root) execFileSync("chown", ["-R", "mysql:mysql", dir]);
  execFileSync(
    installDb,
    [
      "--no-defaults",
      `--datadir=${data}`,
      `--tmpdir=${tmp}`,
      `--user=${user}`,
      "--auth-root-authentication-method=normal",
      "--skip-test-db",
    ],
    { stdio: "pipe" },
  );
  const port = await freePort();
  const log = path.join(dir, "error.log");
  const child: ChildProcess = spawn(
    server,
    [
      "--no-defaults",
      `--datadir=${data}`,
      `--tmpdir=${tmp}`,
      `--user=${user}`,
      `--port=${port}`,
      "--bind-address=127.0.0.1",
      `--socket=${path.join(dir, "mysqld.sock")}`,
      `--pid-file=${path.join(dir, "mysqld.pid")}`,
      `--log-error=${log}`,
      "--skip-log-bin",
      "--innodb-buffer-pool-size=32M",
      "--innodb-flush-log-at-trx-commit=0",
      "--skip-name-resolve",
      "--max-connections=200",
    ],
    { stdio: "ignore" },
  );
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const deadline = Date.now() + 30_000;
  while (!(await reachable(port))) {
    if (exited || Date.now() > deadline) {
      const said = fs.existsSync(log) ? fs.readFileSync(log, "utf8").slice(-2000) : "";
      child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`MariaDB did not start on 127.0.0.1:${port}:\n${said}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    host: "127.0.0.1",
    port,
    url: `mysql://root@127.0.0.1:${port}`,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await gone;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
