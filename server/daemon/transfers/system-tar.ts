import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import type { Readable, Writable } from "node:stream";
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

/** A running tar: its exit, with the start of what it said on stderr when it failed. */
function watched(child: ChildProcess): Promise<void> {
  let said = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (said.length < 4096) said += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new TarFailed(said.trim(), code, signal));
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
 * An uncompressed tar of the view's `members` (paths under /t), as tar
 * writes it: hard links stored as files (the other end may be the
 * JavaScript extractor, which takes links to files it made only), no
 * owners, GNU format. Ends with an error if tar fails.
 */
export async function* systemTarExport(view: TarView, members: string[]): AsyncGenerator<Buffer> {
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
    "--",
    ...members,
  ]);
  const child = spawn(argv[0], argv.slice(1), { env: systemPath, stdio: ["ignore", "pipe", "pipe"] });
  const ended = watched(child);
  ended.catch(() => {});
  try {
    for await (const chunk of child.stdout as Readable) yield chunk as Buffer;
    await ended;
  } finally {
    // The reader went away (the target hung up): tar has no one to write to.
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

/**
 * Extracts a tar stream into `folder` (empty, the extraction's own) with
 * tar in a sandbox that holds only that folder. Member names with `..` or
 * a leading `/`, links tar itself finds unsafe, anything it cannot write:
 * tar says so and exits non-zero, and this rejects (TarFailed); `input`
 * failing rejects with its own error. Owners and set-id bits are not kept;
 * what tar makes of links and special files is for the caller to tidy
 * (moved-tree.ts), the sandbox only keeps tar itself inside.
 */
export async function systemTarExtract(folder: string, input: Readable): Promise<void> {
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
  ]);
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
  try {
    await ended;
  } catch (error) {
    throw inputFailure ?? error;
  } finally {
    input.unpipe(stdin);
  }
  // tar stops at the archive's end: what the source sent after it (the last record's padding)
  // is still read, so the caller's count and digest are of everything it sent.
  input.resume();
  await finished(input);
  if (inputFailure) throw inputFailure;
}
