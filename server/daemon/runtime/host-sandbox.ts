import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ApiError } from "../../errors.ts";

/**
 * The hardened `host` environment: every game process (and every install
 * command) runs inside bubblewrap, as an unprivileged uid, in a new root that
 * holds only the system's read-only parts, a private /tmp and /proc, and the
 * server's own folder read-write (at its real path, so `${rootDir}` and the
 * definition's paths keep working). The panel's data folder, database, keys
 * and other servers are simply not there. The network is shared (game
 * servers listen on ports). Inside, no further user namespace can be made
 * (`unshare -r` would hand the game a root of its own to attack the kernel with).
 */
export interface Isolation {
  /** The server's folder: bound read-write at the same path. */
  root: string;
  /** Folders bound read-only at the same path when they exist (the node's shared binaries). */
  readOnly: string[];
  /** Who the process runs as; absent: the daemon's own uid (a daemon that is not root). */
  uid?: number;
  gid?: number;
  /** Only where bubblewrap is older than 0.8.0 (no --disable-userns): said in the node's log. */
  allowNestedUserns?: boolean;
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

export function systemArgs(): string[] {
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

/**
 * A root daemon keeps its data folders 0700, which the server's uid cannot
 * pass through, and bwrap (run as that uid) opens what it binds by path. So
 * the daemon first makes a private mount namespace, as root, in which the
 * server's folder (and the shared read-only ones) are bound under /mnt, a
 * place anyone may reach, then drops to the server's uid and starts bwrap
 * from there. Nothing of this is visible outside that process.
 */
const gateScript = [
  "set -e",
  "mount -t tmpfs -o mode=0755,size=64k outpost-gate /mnt",
  "n=0",
  'while [ "$1" != -- ]; do mkdir /mnt/$n; [ ! -d "$1" ] || mount --bind "$1" /mnt/$n; n=$((n+1)); shift; done',
  "shift",
  'exec "$@"',
].join("\n");

/** The command line that runs `argv` sandboxed in `cwd` (inside the root) with exactly `env`. */
export function sandboxArgv(
  isolation: Isolation,
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  statusFd: number,
): string[] {
  const gated = isolation.uid !== undefined;
  const sources = [isolation.root, ...isolation.readOnly];
  const from = (index: number) => (gated ? `/mnt/${index}` : sources[index]);
  const args = ["bwrap", ...systemArgs(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  isolation.readOnly.forEach((dir, i) => {
    args.push("--ro-bind-try", from(i + 1), dir);
  });
  args.push("--bind", from(0), isolation.root, "--chdir", cwd);
  args.push("--clearenv");
  for (const [key, value] of Object.entries(env)) args.push("--setenv", key, value);
  if (!isolation.allowNestedUserns) args.push("--unshare-user", "--disable-userns");
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
  if (!gated) return args;
  return [
    ...inPrivateMounts(gateScript),
    ...sources,
    "--",
    ...dropTo(isolation.uid!, isolation.gid ?? isolation.uid!),
    ...args,
  ];
}

export interface SandboxSupport {
  available: boolean;
  /** bwrap's own words for its version ("bubblewrap 0.8.0"), when it runs. */
  version?: string;
  /** bubblewrap older than 0.8.0: sandboxed, but a server can make user namespaces of its own. */
  allowNestedUserns?: boolean;
  /** Why not, for the node's log and the administrator. */
  reason?: string;
}

/** What a start or install of a host server answers on a node without a sandbox; the node's log and view say the same. */
export const sandboxUnavailable = (reason: string): ApiError =>
  new ApiError(
    409,
    "ErrSandboxUnavailable",
    "Servers cannot run on this node: it has no sandbox (${reason}). Install bubblewrap (apt-get install bubblewrap) and allow user namespaces, then restart the node; or set OUTPOST_UNSANDBOXED=allow to run servers unconfined (unsafe on a shared panel).",
    { reason },
  );

/** A start or install on a node that cannot close the host's loopback to its servers (loopback-guard.ts). */
export const loopbackOpen = (reason: string): ApiError =>
  new ApiError(
    409,
    "ErrLoopbackOpen",
    "Servers cannot run on this node: it cannot close this machine's loopback services (the panel's port, local databases) to them: ${reason}. Run the node as root with iptables installed, then restart it; or set OUTPOST_LOOPBACK_OPEN=allow to let servers reach them (unsafe on a shared panel).",
    { reason },
  );

const systemPath = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" };

/**
 * Whether this host can sandbox servers kept under `serversDir`: bwrap (and,
 * for a root daemon, unshare and setpriv) are installed and user namespaces
 * work for an unprivileged uid. Runs the real thing once with `true`.
 */
export function probeSandbox(serversDir: string, uid?: number, allowNestedUserns = false): SandboxSupport {
  const isolation = { root: serversDir, readOnly: [], uid, gid: uid, allowNestedUserns };
  const argv = sandboxArgv(isolation, ["/bin/true"], "/", {}, 1);
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd: "/",
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 10_000,
    env: systemPath,
  });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === "ENOENT";
    return { available: false, reason: missing ? `${argv[0]} is not installed` : result.error.message };
  }
  if (result.status === 0) {
    const version = spawnSync("bwrap", ["--version"], { env: systemPath }).stdout?.toString().trim();
    return { available: true, version: version || "bubblewrap", allowNestedUserns };
  }
  const stderr = result.stderr.toString().trim();
  if (/bwrap: (not found|No such file|Permission denied)/.test(stderr) || /exec.*bwrap/.test(stderr)) {
    return { available: false, reason: "bubblewrap (bwrap) is not installed" };
  }
  // An older bubblewrap still sandboxes; far better than none (the log says what is missing).
  if (/Unknown option --disable-userns/.test(stderr) && !allowNestedUserns) {
    return probeSandbox(serversDir, uid, true);
  }
  return {
    available: false,
    reason: `bubblewrap cannot make a sandbox (user namespaces may be off): ${stderr || `exit ${result.status}`}`,
  };
}

/**
 * What an administrator who chose to run servers without a sandbox
 * (OUTPOST_UNSANDBOXED=allow) still gets on a root node: the process runs as
 * the server's own uid, never root, with the environment it is given. The
 * data folders above the server's own are not reachable by that uid (0700),
 * so in a private mount namespace the first of them is covered by an empty
 * folder holding only the server's folder, at its real path.
 */
export function unconfinedArgv(
  root: string,
  uid: number,
  gid: number,
  argv: string[],
  cwd: string,
): string[] {
  return [
    ...inPrivateMounts(unconfinedGate),
    root,
    closedAncestor(root) ?? "",
    cwd,
    ...dropTo(uid, gid),
    ...argv,
  ];
}

/** `script` run by a root shell in a private mount namespace; its arguments follow. */
function inPrivateMounts(script: string): string[] {
  return ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sh"];
}

/** Runs what follows as `uid`/`gid`, with no supplementary groups. */
function dropTo(uid: number, gid: number): string[] {
  return ["setpriv", `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--"];
}

const unconfinedGate = [
  "set -e",
  "umask 022",
  "root=$1 top=$2 cwd=$3; shift 3",
  'if [ -n "$top" ]; then',
  "  mount -t tmpfs -o mode=0755,size=64k outpost-gate /mnt",
  '  mkdir /mnt/0; mount --bind "$root" /mnt/0',
  '  mount -t tmpfs -o mode=0755,size=64k outpost-data "$top"',
  '  mkdir -p "$root"; mount --bind /mnt/0 "$root"; umount -l /mnt',
  "fi",
  'cd "$cwd"',
  'exec "$@"',
].join("\n");

/** The first folder above `root` that others may not pass through (a 0700 data folder), if any. */
function closedAncestor(root: string): string | undefined {
  const parts = path.resolve(root).split(path.sep).filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const dir = `/${parts.slice(0, i).join("/")}`;
    if ((fs.statSync(dir).mode & 0o001) === 0) return dir;
  }
  return undefined;
}
