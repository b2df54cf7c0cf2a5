import path from "node:path";
import { trustProxySetting } from "./api/pipeline/trust-proxy.ts";
import { repoRoot } from "./repo-root.ts";
import { type LogSettings, logSettings, type NodeSettings, nodeSettings } from "./shared-settings.ts";

/**
 * Panel configuration, read from the environment (names are part of the README's contract).
 * Every OUTPOST_* setting of the panel is read here, and the daemon's in server/daemon/config.ts
 * (tests/unit/server/settings-read-once.test.ts holds it): modules below get the values.
 */
export interface PanelConfig {
  host: string;
  port: number;
  dataDir: string;
  /** The URL users reach the panel at; cookies get Secure when it is https. */
  publicUrl: string | undefined;
  /** postgres://… selects PostgreSQL; otherwise SQLite at <dataDir>/outpost.db. */
  databaseUrl: string | undefined;
  /** Prefix of every cookie the panel sets (auth, auth_expires, scopes, pending). */
  cookiePrefix: string;
  /** Where the built browser app lives. */
  webDir: string;
  /** The self-contained daemon file that `npm run build` makes, served to nodes at /daemon/bundle. */
  daemonBundle: string;
  /** First administrator, made on the first start when no user exists. */
  firstAdmin?: { email: string; username: string; password: string };
  /** OUTPOST_LOG_LEVEL, OUTPOST_LOG_FORMAT (and NO_COLOR). */
  log: LogSettings;
  /** Fastify's trustProxy from OUTPOST_TRUST_PROXY (trust-proxy.ts). */
  trustProxy: boolean | string;
  /** Run the daemon engine inside the panel as node 0 (off with `serve --no-local-node`). */
  localNode: boolean;
  /** The largest file upload accepted through the API (bytes). */
  maxUploadBytes: number;
  /** SFTP port of the local node. */
  sftpPort: number;
  /** Key that seals secrets in the database (OUTPOST_SECRET_KEY); unset means `secret.key` in the data dir. */
  secretKey: string | undefined;
  /** OUTPOST_IMPORT_SFTP_PASSWORD: the old panel's administrator password for `outpost import --sftp` (never on the command line). */
  importSftpPassword: string | undefined;
  /** The local node's Docker engine socket: OUTPOST_DOCKER_SOCKET, else a unix:// DOCKER_HOST's; unset, the usual one. */
  dockerSocket: string | undefined;
  /** How the local node's engine is tuned (OUTPOST_UNSANDBOXED, OUTPOST_STATS_SAMPLE_SECONDS, …: shared-settings.ts). */
  node: NodeSettings;
  /** How many console sockets and SFTP sessions one user, one session and one address may hold open. */
  connectionLimits: { perUser: number; perSession: number; perAddress: number };
  /** Open registrations one address may make before it waits (OUTPOST_REGISTRATIONS_PER_ADDRESS). */
  registrationsPerAddress: number;
  /** How often activity older than the retention setting is removed (OUTPOST_ACTIVITY_PURGE_SECONDS, default hourly). */
  activityPurgeMs: number;
}

function port(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`a port must be a number from 0 to 65535, got "${value}"`);
  return n;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`expected a whole number above 0, got "${value}"`);
  return n;
}

export function readConfig(
  env: NodeJS.ProcessEnv = process.env,
  isTerminal = Boolean(process.stdout.isTTY),
): PanelConfig {
  const node = nodeSettings(env);
  const {
    OUTPOST_ADMIN_EMAIL: email,
    OUTPOST_ADMIN_USERNAME: username,
    OUTPOST_ADMIN_PASSWORD: password,
  } = env;
  return {
    host: env.OUTPOST_HOST || "0.0.0.0",
    port: port(env.OUTPOST_PORT, 8080),
    dataDir: path.resolve(env.OUTPOST_DATA_DIR || "./data"),
    publicUrl: env.OUTPOST_PUBLIC_URL || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    cookiePrefix: env.OUTPOST_COOKIE_PREFIX || "outpost_",
    webDir: path.resolve(env.OUTPOST_WEB_DIR || path.join(repoRoot, "dist")),
    daemonBundle: path.join(repoRoot, "dist-daemon", "outpost-daemon.mjs"),
    firstAdmin: email && username && password ? { email, username, password } : undefined,
    log: logSettings(env, isTerminal),
    trustProxy: trustProxySetting(env.OUTPOST_TRUST_PROXY),
    localNode: env.OUTPOST_LOCAL_NODE !== "false",
    sftpPort: port(env.OUTPOST_SFTP_PORT, 5657),
    secretKey: env.OUTPOST_SECRET_KEY || undefined,
    importSftpPassword: env.OUTPOST_IMPORT_SFTP_PASSWORD || undefined,
    maxUploadBytes: positiveNumber(env.OUTPOST_MAX_UPLOAD_BYTES, 64 * 1024 ** 3),
    dockerSocket: env.OUTPOST_DOCKER_SOCKET || node.dockerHostSocket,
    node,
    registrationsPerAddress: positiveNumber(env.OUTPOST_REGISTRATIONS_PER_ADDRESS, 5),
    connectionLimits: {
      perUser: positiveNumber(env.OUTPOST_MAX_CONNECTIONS_PER_USER, 100),
      perSession: positiveNumber(env.OUTPOST_MAX_CONNECTIONS_PER_SESSION, 50),
      perAddress: positiveNumber(env.OUTPOST_MAX_CONNECTIONS_PER_ADDRESS, 200),
    },
    activityPurgeMs: positiveNumber(env.OUTPOST_ACTIVITY_PURGE_SECONDS, 3600) * 1000,
  };
}
