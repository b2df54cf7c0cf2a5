import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DaemonConfig } from "../../server/daemon/config.ts";
import { stopChild } from "./panel-process.ts";
import { waitForLine } from "./poll.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface DaemonProcess {
  config: DaemonConfig;
  /** The config file the daemon was started with (written with the default umask, as an administrator would). */
  configFile: string;
  baseUrl: string;
  logs(): string;
  /** The running process's id (undefined while stopped). */
  pid(): number | undefined;
  /** Stops the process; the config and data stay, so start() brings the same node back. */
  stop(): Promise<void>;
  /** kill -9: the process dies where it stands, as in a crash; start() brings it back. */
  crash(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A real `outpost daemon --config FILE` on loopback. The config is the one
 * the panel's deployment endpoint gives, with the listen address moved to
 * 127.0.0.1 and the data dir to a temp folder.
 */
export async function startDaemon(
  config: DaemonConfig,
  /** Environment variables for the daemon besides the test's own. */
  env: Record<string, string> = {},
  /** A command that runs the daemon's command line given as its last arguments (e.g. hideBubblewrap). */
  launcher: string[] = [],
): Promise<DaemonProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-daemon-"));
  const local: DaemonConfig = {
    ...config,
    listen: { ...config.listen, host: "127.0.0.1" },
    sftp: { ...config.sftp, host: "127.0.0.1" },
    dataDir: path.join(dir, "data"),
  };
  const file = path.join(dir, "config.json");
  fs.writeFileSync(file, JSON.stringify(local, null, 2));
  let child: ChildProcess | undefined;
  let output = "";

  const start = async () => {
    const started = output.length;
    const [command, ...args] = [
      ...launcher,
      process.execPath,
      path.join(repoRoot, "bin/outpost.mjs"),
      "daemon",
      "--config",
      file,
    ];
    child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, OUTPOST_LOG_LEVEL: "info", ...env },
    });
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    await waitForLine("daemon", child, () => output, "Outpost daemon for node", 30_000, started);
  };
  await start();
  const stop = async () => {
    if (child) await stopChild(child);
  };
  return {
    config: local,
    configFile: file,
    baseUrl: `http://127.0.0.1:${local.listen.port}`,
    logs: () => output,
    pid: () => (child?.exitCode === null ? child.pid : undefined),
    stop,
    start,
    async crash() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((r) => running.once("exit", r));
      running.kill("SIGKILL");
      await exited;
    },
    async destroy() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the daemon on this host as it is, but in a private mount namespace
 * where bubblewrap's program is /dev/null (not executable): a host without
 * bubblewrap, as far as the daemon (and anything it starts) can tell.
 * Root only (it mounts).
 */
export function hideBubblewrap(): string[] {
  return [
    "unshare",
    "--mount",
    "--propagation",
    "private",
    "--",
    "/bin/sh",
    "-c",
    'for b in /usr/bin/bwrap /bin/bwrap /usr/local/bin/bwrap; do [ ! -e "$b" ] || mount --bind /dev/null "$b" || exit 1; done; exec "$@"',
    "sh",
  ];
}
