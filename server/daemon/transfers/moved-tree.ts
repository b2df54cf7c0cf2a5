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
  const walk = async (relative: string): Promise<void> => {
    const here = relative ? path.join(folder, relative) : folder;
    // A folder's entries side by side: the file system's thread pool works on several at once.
    const entries = await fs.readdir(here, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const place = relative ? `${relative}/${entry.name}` : entry.name;
        const found = path.join(here, entry.name);
        if (entry.isDirectory()) await walk(place);
        else if (entry.isFile()) return;
        else if (entry.isSymbolicLink() && options.links) {
          const target = await storableLink(sandbox, place, found);
          if (target === undefined || target !== (await fs.readlink(found))) await fs.unlink(found);
        } else await fs.unlink(found);
      }),
    );
  };
  await walk("");
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
  const walk = async (relative: string): Promise<boolean> => {
    const here = relative ? path.join(root, relative) : root;
    for (const entry of await fs.readdir(here, { withFileTypes: true }).catch(() => [])) {
      const place = relative ? `${relative}/${entry.name}` : entry.name;
      const found = path.join(here, entry.name);
      if (entry.isBlockDevice() || entry.isCharacterDevice()) return true;
      if (entry.isDirectory() && (await walk(place))) return true;
      if (entry.isSymbolicLink()) {
        const stored = await storableLink(sandbox, place, found).catch(() => undefined);
        if (stored === undefined || stored !== (await fs.readlink(found).catch(() => ""))) return true;
      }
    }
    return false;
  };
  return walk("");
}
