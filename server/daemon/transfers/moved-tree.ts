import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { storableLink } from "../backups/backup-archive.ts";
import { Sandbox } from "../sandbox/index.ts";
import type { Owner } from "../servers/server-owner.ts";

/**
 * After the system tar (system-tar.ts) unpacked a move into its staging
 * folder: the tree is made what the JavaScript extractor would have made of
 * the same archive. Links that lead out of `folder` (or are absolute) go,
 * and with `links: false` every link goes; FIFOs, sockets and devices go;
 * files keep only their permission bits (no set-id, always the owner's
 * read and write), folders stay the owner's to walk; with `owner`, the
 * tree is given to it (the server's uid, on a root node). Modes and owners
 * are chmod's and chown's work, which do thousands of files in the time
 * this process takes for hundreds; neither follows a link.
 */
export async function tidyExtracted(
  folder: string,
  options: { links: boolean; owner?: Owner },
): Promise<void> {
  const sandbox = new Sandbox(folder);
  for (const [place, kind] of await specialEntries(folder)) {
    const found = path.join(folder, place);
    if (kind === "l" && options.links) {
      const target = await storableLink(sandbox, place, found);
      if (target === undefined || target !== (await fs.readlink(found))) await fs.unlink(found);
    } else await fs.unlink(found);
  }
  // Set-id bits go before any owner changes: such a bit never meets the server's uid.
  await run("chmod", ["-R", "u+rwX,ug-s", "--", folder]);
  const { owner } = options;
  if (owner) {
    await run("chown", ["-R", "-h", "-P", `${owner.uid}:${owner.gid}`, "--", folder]);
    // Only the server (and root) may look inside, as ensureServerOwner leaves a server's folder.
    await fs.chmod(folder, 0o700);
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: { PATH: "/usr/bin:/bin" } }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${command}: ${stderr.trim() || error.message}`)) : resolve(),
    );
  });
}

/**
 * Whether a server folder holds what tar would move otherwise than the
 * JavaScript archiver (backup-archive.ts): a link that leads out (left out
 * by it) or an absolute one (stored by it as the relative link it amounts
 * to; by tar as it is, to lead elsewhere on the other node), or a device
 * (left out by it; the other node's unprivileged tar would refuse it).
 */
export async function needsJavaScriptArchiver(root: string): Promise<boolean> {
  const sandbox = new Sandbox(root);
  // What cannot be listed, the JavaScript archiver walks (and skips what it cannot read).
  const entries = await specialEntries(root).catch(() => undefined);
  if (!entries) return true;
  for (const [place, kind] of entries) {
    if (kind === "b" || kind === "c") return true;
    if (kind === "l") {
      const found = path.join(root, place);
      const stored = await storableLink(sandbox, place, found).catch(() => undefined);
      if (stored === undefined || stored !== (await fs.readlink(found).catch(() => ""))) return true;
    }
  }
  return false;
}

/**
 * What under `folder` is neither a regular file nor a folder (links, FIFOs,
 * sockets, devices), as [path relative to it, find's type letter]: GNU
 * find walks a game world's thousands of files in a fraction of the time
 * a walk in Node takes. Links are not followed.
 */
async function specialEntries(folder: string): Promise<[string, string][]> {
  // A missing folder fails as fs would (ENOENT), for callers that expect it.
  await fs.lstat(folder);
  const listed = await new Promise<string>((resolve, reject) => {
    execFile(
      "find",
      ["-P", folder, "-mindepth", "1", "!", "-type", "f", "!", "-type", "d", "-printf", "%y%P\\0"],
      { env: { PATH: "/usr/bin:/bin" }, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`find: ${stderr.trim() || error.message}`)) : resolve(stdout),
    );
  });
  return listed
    .split("\0")
    .filter(Boolean)
    .map((entry) => [entry.slice(1), entry[0]]);
}
