import path from "node:path";
import { repoRoot } from "./repo-root.ts";
import { unsandboxedAllowed } from "./unsandboxed-opt-in.ts";

/** Panel configuration, read from the environment (names are part of the README's contract). */
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
  logLevel: string;
  /** Run the daemon engine inside the panel as node 0 (off with `serve --no-local-node`). */
  localNode: boolean;
  /** The largest file upload accepted through the API (bytes). */
  maxUploadBytes: number;
  /** SFTP port of the local node. */
  sftpPort: number;
  /** Key that seals secrets in the database (OUTPOST_SECRET_KEY); unset means `secret.key` in the data dir. */
  secretKey: string | undefined;
  /** The local node's Docker engine socket (OUTPOST_DOCKER_SOCKET); by default DOCKER_HOST's or the usual one. */
  dockerSocket: string | undefined;
  /** How many console sockets and SFTP sessions one user, one session and one address may hold open. */
  connectionLimits: { perUser: number; perSession: number; perAddress: number };
  /** Open registrations one address may make before it waits (OUTPOST_REGISTRATIONS_PER_ADDRESS). */
  registrationsPerAddress: number;
  /** OUTPOST_UNSANDBOXED=allow: the local node runs host servers unconfined where no sandbox works (unsafe). */
  allowUnsandboxed: boolean;
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

export function readConfig(env: NodeJS.ProcessEnv = process.env): PanelConfig {
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
    logLevel: env.OUTPOST_LOG_LEVEL || "info",
    localNode: env.OUTPOST_LOCAL_NODE !== "false",
    sftpPort: port(env.OUTPOST_SFTP_PORT, 5657),
    secretKey: env.OUTPOST_SECRET_KEY || undefined,
    maxUploadBytes: positiveNumber(env.OUTPOST_MAX_UPLOAD_BYTES, 64 * 1024 ** 3),
    dockerSocket: env.OUTPOST_DOCKER_SOCKET || undefined,
    registrationsPerAddress: positiveNumber(env.OUTPOST_REGISTRATIONS_PER_ADDRESS, 5),
    allowUnsandboxed: unsandboxedAllowed(env.OUTPOST_UNSANDBOXED),
    connectionLimits: {
      perUser: positiveNumber(env.OUTPOST_MAX_CONNECTIONS_PER_USER, 100),
      perSession: positiveNumber(env.OUTPOST_MAX_CONNECTIONS_PER_SESSION, 50),
      perAddress: positiveNumber(env.OUTPOST_MAX_CONNECTIONS_PER_ADDRESS, 200),
    },
    activityPurgeMs: positiveNumber(env.OUTPOST_ACTIVITY_PURGE_SECONDS, 3600) * 1000,
  };
}
