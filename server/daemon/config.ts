import fs from "node:fs";
import path from "node:path";
import { ensurePrivateFile } from "../secrets/private-files.ts";
import { type LogSettings, logSettings, nodeSettings } from "../shared-settings.ts";
import type { EngineOptions } from "./engine.ts";

/**
 * `outpost daemon`'s settings: its config file, and the environment it was started with (read
 * here and nowhere else in the daemon; the names the panel's local node shares are read by
 * shared-settings.ts).
 */

/**
 * Everything `outpost daemon --config FILE` needs. The panel's deployment
 * endpoint hands an administrator exactly this object for a node.
 */
export interface DaemonConfig {
  nodeId: number;
  /** The node's secret, shared with the panel: it keys the panel's signed tokens. */
  secret: string;
  /** Where the panel is reached, for the calls a node makes back (SFTP sign-in). */
  panelUrl: string;
  listen: { host: string; port: number };
  sftp: { host: string; port: number };
  dataDir: string;
  /** The Docker engine's socket; by default a unix:// DOCKER_HOST or the engine's usual socket. */
  dockerSocket?: string;
  /**
   * "allow": run host servers unconfined where no sandbox works (unsafe on a
   * shared panel); OUTPOST_UNSANDBOXED=allow in the daemon's environment does the same.
   */
  unsandboxed?: "allow";
  /**
   * true: where the kernel refuses servers' swap limits and the host has swap, start them all the
   * same (they may swap without bound); OUTPOST_ALLOW_UNLIMITED_SWAP=1 does the same.
   */
  allowUnlimitedSwap?: boolean;
  /** Seconds between resource-history samples (default: OUTPOST_STATS_SAMPLE_SECONDS, else 30). */
  statsSampleSeconds?: number;
}

function fail(problem: string): never {
  throw new Error(`daemon config: ${problem}`);
}

const isPort = (n: unknown): n is number =>
  Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 65535;

/** Reads and checks a daemon config file; relative dataDir is taken from the file's folder. */
export function readDaemonConfig(file: string): DaemonConfig {
  // It holds the node's secret: narrowed to 0600 when the daemon's user owns it
  // (a file an administrator keeps elsewhere, owned by root, is theirs to set).
  try {
    ensurePrivateFile(file);
  } catch {}
  let raw: Partial<DaemonConfig>;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    fail(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (!Number.isInteger(raw.nodeId) || (raw.nodeId as number) < 1)
    fail("nodeId must be a node id (1 or more)");
  if (typeof raw.secret !== "string" || raw.secret.length < 16) fail("secret is missing or too short");
  if (typeof raw.panelUrl !== "string") fail("panelUrl is missing");
  if (!raw.listen || typeof raw.listen.host !== "string" || !isPort(raw.listen.port))
    fail("listen needs host and port");
  if (!raw.sftp || typeof raw.sftp.host !== "string" || !isPort(raw.sftp.port))
    fail("sftp needs host and port");
  if (typeof raw.dataDir !== "string" || !raw.dataDir) fail("dataDir is missing");
  if (raw.dockerSocket !== undefined && (typeof raw.dockerSocket !== "string" || !raw.dockerSocket))
    fail("dockerSocket must be a socket path");
  if (raw.unsandboxed !== undefined && raw.unsandboxed !== "allow")
    fail('unsandboxed must be "allow" or absent');
  if (raw.allowUnlimitedSwap !== undefined && typeof raw.allowUnlimitedSwap !== "boolean")
    fail("allowUnlimitedSwap must be true, false or absent");
  if (
    raw.statsSampleSeconds !== undefined &&
    !(
      typeof raw.statsSampleSeconds === "number" &&
      raw.statsSampleSeconds >= 1 &&
      raw.statsSampleSeconds <= 3600
    )
  )
    fail("statsSampleSeconds must be a number of seconds from 1 to 3600");
  return { ...(raw as DaemonConfig), dataDir: path.resolve(path.dirname(file), raw.dataDir) };
}

/** What the daemon takes from its environment and its file, for its logger and its engine. */
export interface DaemonSettings {
  log: LogSettings;
  engine: Pick<
    EngineOptions,
    | "dockerSocket"
    | "allowUnsandboxed"
    | "allowUnlimitedSwap"
    | "allowOpenLoopback"
    | "statsSampleMs"
    | "diskCheckMs"
    | "watchdogMs"
    | "extractMaxRatio"
  >;
}

/** The file's values win over the environment's (a config file is per node, the environment per host). */
export function daemonSettings(
  config: DaemonConfig,
  env: NodeJS.ProcessEnv = process.env,
  isTerminal = Boolean(process.stdout.isTTY),
): DaemonSettings {
  const node = nodeSettings(env);
  return {
    log: logSettings(env, isTerminal),
    engine: {
      dockerSocket: config.dockerSocket ?? node.dockerHostSocket,
      allowUnsandboxed: config.unsandboxed === "allow" || node.allowUnsandboxed,
      allowUnlimitedSwap: config.allowUnlimitedSwap ?? node.allowUnlimitedSwap,
      allowOpenLoopback: node.allowOpenLoopback,
      statsSampleMs:
        config.statsSampleSeconds === undefined ? node.statsSampleMs : config.statsSampleSeconds * 1000,
      diskCheckMs: node.diskCheckMs,
      watchdogMs: node.watchdogMs,
      extractMaxRatio: node.extractMaxRatio,
    },
  };
}

/**
 * Whether the daemon checks its own answers against the contract before it sends them: under the
 * test runner, or with OUTPOST_CHECK_ANSWERS=1. Off by default: the panel checks every answer.
 */
export function checksOwnAnswers(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.OUTPOST_CHECK_ANSWERS === "1" || env.VITEST !== undefined;
}
