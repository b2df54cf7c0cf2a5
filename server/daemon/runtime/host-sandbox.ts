import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The hardened `host` environment: every game process (and every install
 * command) runs inside bubblewrap, as an unprivileged uid, in a new root that
 * holds only the system's read-only parts, a private /tmp and /proc, and the
 * server's own folder read-write (at its real path, so `${rootDir}` and the
 * definition's paths keep working). The panel's data folder, database, keys
 * and other servers are simply not there. The network is shared (game
 * servers listen on ports).
 */
export interface Isolation {
  /** The server's folder: bound read-write at the same path. */
  root: string;
  /** Folders bound read-only at the same path when they exist (the node's shared binaries). */
  readOnly: string[];
  /** Who the process runs as; absent: the daemon's own uid (a daemon that is not root). */
  uid?: number;
  gid?: number;
}

/** Parts of /etc programs need (name lookup, TLS roots, time zone, Java's configuration); the rest stays hidden. */
const etcEntries = [
  "passwd",
  "group",
  "hosts",
  "host.conf",
  "resolv.conf",
  "nsswitch.conf",
  "gai.conf",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "localtime",
  "timezone",
  "alternatives",
  "mime.types",
  "os-release",
  "xdg",
];

/** Top-level system folders: bound read-only, or re-created as the same symlink (merged /usr). */
const systemEntries = ["usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "opt"];

function systemArgs(): string[] {
  const args: string[] = [];
  for (const name of systemEntries) {
    const at = `/${name}`;
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(at);
    } catch {
      continue;
    }
    if (stats.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(at), at);
    else if (stats.isDirectory()) args.push("--ro-bind", at, at);
  }
  let etc: string[] = [];
  try {
    etc = fs.readdirSync("/etc");
  } catch {}
  for (const name of etc) {
    // Java keeps its configuration in /etc/java-<version>-openjdk.
    if (etcEntries.includes(name) || name.startsWith("java"))
      args.push("--ro-bind", `/etc/${name}`, `/etc/${name}`);
  }
  return args;
}

/** The bwrap command line that runs `argv` in `cwd` (inside the root) with exactly `env`. */
export function sandboxArgv(
  isolation: Isolation,
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  statusFd: number,
): string[] {
  const args = ["bwrap", ...systemArgs(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  for (const dir of isolation.readOnly) args.push("--ro-bind-try", dir, dir);
  args.push("--bind", isolation.root, isolation.root, "--chdir", cwd);
  args.push("--clearenv");
  for (const [key, value] of Object.entries(env)) args.push("--setenv", key, value);
  args.push(
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--hostname",
    "outpost",
    "--die-with-parent",
    "--new-session",
    "--json-status-fd",
    String(statusFd),
    "--",
    ...argv,
  );
  return args;
}

export interface SandboxSupport {
  available: boolean;
  /** Why not, for the node's log and the administrator. */
  reason?: string;
}

/**
 * Whether this host can sandbox servers kept under `serversDir`: bwrap is
 * installed, user namespaces work for an unprivileged uid, and that uid can
 * reach the servers folder (each folder above it must be traversable).
 */
export function probeSandbox(serversDir: string, uid?: number, gid?: number): SandboxSupport {
  const result = spawnSync(
    "bwrap",
    ["--ro-bind", "/", "/", "--bind", serversDir, serversDir, "--unshare-pid", "--", "/bin/true"],
    {
      uid,
      gid,
      cwd: "/",
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 10_000,
      env: { PATH: "/usr/bin:/bin" },
    },
  );
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    return {
      available: false,
      reason: missing ? "bubblewrap (bwrap) is not installed" : result.error.message,
    };
  }
  if (result.status === 0) return { available: true };
  const stderr = result.stderr.toString().trim();
  if (/Permission denied/.test(stderr) && stderr.includes(serversDir)) {
    return {
      available: false,
      reason: `the servers folder ${serversDir} cannot be reached by server users: each folder above it must be traversable (o+x)`,
    };
  }
  return {
    available: false,
    reason: `bwrap cannot make a sandbox (user namespaces?): ${stderr || `exit ${result.status}`}`,
  };
}

/** Adds o+x to the daemon's own folders on the way to the servers (not listing: only passing through). */
export function openPathTo(serversDir: string, dataDir: string): void {
  let dir = path.resolve(serversDir);
  const stop = path.dirname(path.resolve(dataDir));
  while (dir !== stop && dir !== path.dirname(dir)) {
    try {
      const mode = fs.statSync(dir).mode & 0o7777;
      if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
    } catch {}
    dir = path.dirname(dir);
  }
}
