import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port.ts";
import { waitForLine } from "./poll.ts";
import { scratchPostgresDatabase } from "./postgres-database.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

export const admin = { email: "admin@example.com", username: "admin", password: "admin-password-1" };

export interface PanelProcess {
  url: string;
  pid: number;
  dataDir: string;
  /** The local node's SFTP port (a free one unless the caller's env names it). */
  sftpPort: number;
  databaseUrl: string | undefined;
  logs(): string;
  stop(): Promise<void>;
}

/**
 * A real panel: `outpost serve` in its own process on a free loopback port
 * with a temp data dir and, when `postgresUrl` is given, a fresh database in
 * that cluster (or, with `databaseUrl`, another panel's database). The first administrator comes from OUTPOST_ADMIN_*. A
 * given `dataDir` is the caller's: it is used as it is and kept at stop (a
 * restart on the same folder); otherwise a temp folder is made and removed.
 */
export async function startPanel(
  opts: {
    postgresUrl?: string;
    /** Another panel's PostgreSQL database to share (neither made nor dropped here); instead of postgresUrl. */
    databaseUrl?: string;
    env?: Record<string, string>;
    webDir?: string;
    nodeArgs?: string[];
    dataDir?: string;
    /** Another checkout to run `outpost serve` from (a bench comparing two builds). */
    checkout?: string;
  } = {},
): Promise<PanelProcess> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "outpost-panel-"));
  const port = await freePort();
  // Every panel runs the local node's SFTP listener: parallel panels each need their own port.
  const sftpPort = opts.env?.OUTPOST_SFTP_PORT ? Number(opts.env.OUTPOST_SFTP_PORT) : await freePort();
  let databaseUrl = opts.databaseUrl;
  let dropDatabase = async () => {};
  if (opts.postgresUrl && !databaseUrl) {
    const scratch = await scratchPostgresDatabase(opts.postgresUrl);
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OUTPOST_HOST: "127.0.0.1",
    OUTPOST_PORT: String(port),
    OUTPOST_DATA_DIR: dataDir,
    OUTPOST_SFTP_PORT: String(sftpPort),
    OUTPOST_ADMIN_EMAIL: admin.email,
    OUTPOST_ADMIN_USERNAME: admin.username,
    OUTPOST_ADMIN_PASSWORD: admin.password,
    OUTPOST_WEB_DIR: opts.webDir ?? path.join(dataDir, "no-web-app"),
    DATABASE_URL: databaseUrl ?? "",
    // Tests register many accounts from 127.0.0.1; the throttle's own test lowers this again.
    OUTPOST_REGISTRATIONS_PER_ADDRESS: "100000",
    ...opts.env,
  };
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), path.join(opts.checkout ?? repoRoot, "bin/outpost.mjs"), "serve"],
    {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  try {
    await waitForLine("panel", child, () => output, "Outpost panel on", 30_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    dataDir,
    sftpPort,
    databaseUrl,
    logs: () => output,
    async stop() {
      await stopChild(child);
      await dropDatabase();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
