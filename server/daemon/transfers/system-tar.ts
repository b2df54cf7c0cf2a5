import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import type { Duplex, Readable, Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { systemArgs } from "../runtime/host-sandbox.ts";

/**
 * GNU tar, run in bubblewrap, for moving a server: about five times the
 * JavaScript archiver's speed on both ends (bench/transfer.ts), so a move
 * runs near the wire's speed. Each tar sees only what it works on: the
 * exporting one the server's folders, read-only, and nothing else of the
 * node; the extracting one the empty staging folder, and no network. A
 * root node's tar keeps no capability but, when it reads, the one to read
 * any file (the server's files belong to the server's uid); a node that is
 * not root runs it in a user namespace of its own. Where either is missing
 * the JavaScript archiver does the work (transfer-ops.ts), as safely.
 */

const systemPath = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" };
const runsAsRoot = () => process.getuid?.() === 0;

/** What tar may see: [path on the node, path inside] pairs. */
export interface TarView {
  readOnly: [string, string][];
  writable?: [string, string];
}

function sandboxed(view: TarView, mayReadAny: boolean, tarArgs: string[]): string[] {
  const args = ["bwrap", ...systemArgs(), "--dev", "/dev", "--tmpfs", "/tmp"];
  for (const [from, to] of view.readOnly) args.push("--ro-bind", from, to);
  if (view.writable) args.push("--bind", view.writable[0], view.writable[1]);
  args.push("--unshare-net", "--unshare-ipc", "--unshare-pid", "--unshare-uts");
  args.push("--die-with-parent", "--new-session", "--clearenv", "--setenv", "PATH", systemPath.PATH);
  if (runsAsRoot()) {
    args.push("--cap-drop", "ALL");
    if (mayReadAny) args.push("--cap-add", "CAP_DAC_READ_SEARCH");
  } else {
    args.push("--unshare-user");
  }
  return [...args, "--", "tar", ...tarArgs];
}

let probed: boolean | undefined;

/** Whether GNU tar runs in bubblewrap here; asked once, on the first move. */
export function systemTarWorks(): boolean {
  if (probed === undefined) {
    const argv = sandboxed({ readOnly: [] }, true, ["--version"]);
    const result = spawnSync(argv[0], argv.slice(1), { env: systemPath, timeout: 10_000 });
    probed = result.status === 0 && /GNU tar/.test(result.stdout?.toString() ?? "");
  }
  return probed;
}

/** What tar says of its count (--totals, and the `totals` checkpoint action): "Total bytes read: N (…)". */
const totalLine = /^Total bytes (?:read|written): (\d+)/;

/**
 * A running tar: its exit, with the bytes it last said it read or wrote
 * (each such line goes to `onTotal` too), or the start of what else it said
 * on stderr when it failed.
 */
function watched(child: ChildProcess, onTotal?: (bytes: number) => void): Promise<number | undefined> {
  let said = "";
  let partial = "";
  let total: number | undefined;
  child.stderr?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const count = totalLine.exec(line);
      if (count) {
        total = Number(count[1]);
        onTotal?.(total);
      } else if (said.length < 4096) said += `${line}\n`;
    }
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(total);
      else reject(new TarFailed((said + partial).trim(), code, signal));
    });
  });
}

export class TarFailed extends Error {
  constructor(
    readonly said: string,
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
  ) {
    super(said.split("\n")[0] || `tar ended with ${signal ?? `exit ${code}`}`);
  }

  get noSpace(): boolean {
    return /No space left on device|Disk quota exceeded/.test(this.said);
  }
}

/**
 * Writes an uncompressed tar of the view's `members` (paths under /t)
 * straight into `socket` (tar writes to it itself) and answers the bytes it
 * wrote: hard links stored as files (the other end may be the JavaScript
 * extractor, which takes links to files it made only), no owners, GNU
 * format. Rejects (TarFailed) if tar fails, the target hanging up among the reasons.
 */
export async function systemTarSend(view: TarView, members: string[], socket: Duplex): Promise<number> {
  const argv = sandboxed(view, true, [
    "c",
    "-f",
    "-",
    "-C",
    "/t",
    "--format=gnu",
    "--hard-dereference",
    "--numeric-owner",
    "--owner=0",
    "--group=0",
    "--totals",
    "--",
    ...members,
  ]);
  const child = spawn(argv[0], argv.slice(1), { env: systemPath, stdio: ["ignore", socket, "pipe"] });
  // The target went away: tar, blocked on a full socket, is not left behind.
  const gone = () => child.kill("SIGKILL");
  socket.once("close", gone);
  try {
    const bytes = await watched(child);
    if (bytes === undefined) throw new TarFailed("tar said nothing of what it wrote", 0, null);
    return bytes;
  } finally {
    socket.off("close", gone);
  }
}

/** The bytes tar read, as it counts them, every this many 10 KiB records (about once a megabyte). */
const progressRecords = 100;

/**
 * Extracts a tar stream into `folder` (empty, the extraction's own) with
 * tar in a sandbox that holds only that folder, and answers the bytes of
 * the archive read. `input` is a stream Node pipes in, or a connection tar
 * reads itself (`handed`: Node must not be reading it), whose progress
 * tar reports to `onRead` about once a megabyte; `signal` ends that tar. Member names with `..` or
 * a leading `/`, links tar itself finds unsafe, anything it cannot write:
 * tar says so and exits non-zero, and this rejects (TarFailed); `input`
 * failing rejects with its own error. Owners and set-id bits are not kept;
 * what tar makes of links and special files is for the caller to tidy
 * (moved-tree.ts), the sandbox only keeps tar itself inside.
 */
export async function systemTarExtract(
  folder: string,
  input: Readable,
  options: { handed?: boolean; onRead?: (bytes: number) => void; signal?: AbortSignal } = {},
): Promise<number | undefined> {
  const argv = sandboxed({ readOnly: [], writable: [folder, "/x"] }, false, [
    "x",
    "-f",
    "-",
    "-C",
    "/x",
    "--no-same-owner",
    "--no-same-permissions",
    "--no-overwrite-dir",
    "--warning=no-timestamp",
    "--totals",
    `--checkpoint=${progressRecords}`,
    "--checkpoint-action=totals",
  ]);
  if (options.handed) {
    // Node cannot stop a read tar is blocked in: an abort ends tar itself.
    const child = spawn(argv[0], argv.slice(1), {
      env: systemPath,
      stdio: [input, "ignore", "pipe"],
      signal: options.signal,
      killSignal: "SIGKILL",
    });
    return watched(child, options.onRead);
  }
  const child = spawn(argv[0], argv.slice(1), { env: systemPath, stdio: ["pipe", "ignore", "pipe"] });
  const ended = watched(child);
  let inputFailure: unknown;
  const stdin = child.stdin as Writable;
  input.on("error", (error) => {
    inputFailure ??= error;
    child.kill("SIGKILL");
  });
  // tar stops reading when it refuses (EPIPE here): its exit says why.
  stdin.on("error", () => {});
  input.pipe(stdin);
  let read: number | undefined;
  try {
    read = await ended;
  } catch (error) {
    throw inputFailure ?? error;
  } finally {
    input.unpipe(stdin);
  }
  // tar stops at the archive's end: what the source sent after it (the last record's padding)
  // is still read, so the caller's count is of everything it sent.
  input.resume();
  await finished(input);
  if (inputFailure) throw inputFailure;
  return read;
}
