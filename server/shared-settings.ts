/**
 * Settings that both the panel (for its log and its local node) and `outpost daemon` read, under
 * the same names. Only the config modules (server/config.ts, server/daemon/config.ts) call these,
 * with the environment they were given; nothing below them reads the environment.
 */
type Env = Record<string, string | undefined>;

export type LogFormat = "json" | "pretty";

export interface LogSettings {
  /** OUTPOST_LOG_LEVEL (pino's level names), else info. */
  level: string;
  /** OUTPOST_LOG_FORMAT=json|pretty; by default a terminal gets pretty lines and anything else JSON. */
  format: LogFormat;
  /** Pretty lines may be coloured on a terminal, unless NO_COLOR is set (no-color.org). */
  colour: boolean;
}

export function logSettings(env: Env, isTerminal: boolean): LogSettings {
  const chosen = env.OUTPOST_LOG_FORMAT?.toLowerCase();
  return {
    level: env.OUTPOST_LOG_LEVEL || "info",
    format: chosen === "json" || chosen === "pretty" ? chosen : isTerminal ? "pretty" : "json",
    colour: !env.NO_COLOR,
  };
}

/**
 * How a node engine is tuned. A value left undefined (unset, or not a number above 0) takes the
 * default of the module that uses it.
 */
export interface NodeSettings {
  /** OUTPOST_STATS_SAMPLE_SECONDS, 1 s at least. */
  statsSampleMs?: number;
  /** OUTPOST_DISK_CHECK_SECONDS (fractions allowed). */
  diskCheckMs?: number;
  /** OUTPOST_WATCHDOG_SECONDS (fractions allowed): between the hang watchdog's rounds. */
  watchdogMs?: number;
  /** OUTPOST_EXTRACT_MAX_RATIO: how many times its own size an archive may unpack to. */
  extractMaxRatio?: number;
  /** OUTPOST_UNSANDBOXED=allow. */
  allowUnsandboxed: boolean;
  /** OUTPOST_ALLOW_UNLIMITED_SWAP=1. */
  allowUnlimitedSwap: boolean;
  /** OUTPOST_LOOPBACK_OPEN=allow. */
  allowOpenLoopback: boolean;
  /** The socket of a `unix://` DOCKER_HOST (an engine on another host could not mount this node's folders). */
  dockerHostSocket?: string;
}

export function nodeSettings(env: Env): NodeSettings {
  const seconds = positive(env.OUTPOST_STATS_SAMPLE_SECONDS);
  const diskSeconds = positive(env.OUTPOST_DISK_CHECK_SECONDS);
  const watchdogSeconds = positive(env.OUTPOST_WATCHDOG_SECONDS);
  const host = env.DOCKER_HOST;
  return {
    statsSampleMs: seconds === undefined ? undefined : Math.max(1, seconds) * 1000,
    diskCheckMs: diskSeconds === undefined ? undefined : diskSeconds * 1000,
    watchdogMs: watchdogSeconds === undefined ? undefined : watchdogSeconds * 1000,
    extractMaxRatio: positive(env.OUTPOST_EXTRACT_MAX_RATIO),
    allowUnsandboxed: unsandboxedAllowed(env.OUTPOST_UNSANDBOXED),
    allowUnlimitedSwap: unlimitedSwapAllowed(env.OUTPOST_ALLOW_UNLIMITED_SWAP),
    allowOpenLoopback: openLoopbackAllowed(env.OUTPOST_LOOPBACK_OPEN),
    dockerHostSocket: host?.startsWith("unix://") ? host.slice("unix://".length) : undefined,
  };
}

function positive(value: string | undefined): number | undefined {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * OUTPOST_UNSANDBOXED takes one value, spelled out, so a typo never turns the
 * sandbox's absence into consent.
 */
export function unsandboxedAllowed(value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  if (value === "allow") return true;
  throw new Error(`OUTPOST_UNSANDBOXED must be "allow" or unset, got "${value}"`);
}

/** OUTPOST_LOOPBACK_OPEN: "allow" or unset, as OUTPOST_UNSANDBOXED. */
function openLoopbackAllowed(value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  if (value === "allow") return true;
  throw new Error(`OUTPOST_LOOPBACK_OPEN must be "allow" or unset, got "${value}"`);
}

/** OUTPOST_ALLOW_UNLIMITED_SWAP: 1 or unset (0 too); anything else is an error, not consent. */
export function unlimitedSwapAllowed(value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "0") return false;
  if (value === "1") return true;
  throw new Error(`OUTPOST_ALLOW_UNLIMITED_SWAP must be 1 or unset, got "${value}"`);
}
