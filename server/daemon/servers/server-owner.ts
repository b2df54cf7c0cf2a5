import fs from "node:fs/promises";
import path from "node:path";
import { isServerUid, type UidBlock } from "./uid-blocks.ts";

/**
 * Each server's own unprivileged uid/gid (when the daemon runs as root): the
 * owner of its folder says which one it is, so nothing else needs storing.
 * The daemon (root) manages those files all the same, and the sandbox module
 * hands what the daemon creates there (uploads, extraction, downloads) to the
 * folder's owner, so the server can write it too. New uids come from the
 * node's own block (uid-blocks.ts), so two nodes on one host never share one.
 */
export const runsAsRoot = (): boolean => process.getuid?.() === 0;

export interface Owner {
  uid: number;
  gid: number;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * The uids taken in a servers folder: its folders' owners, read once, and
 * every uid given out since. Reading every folder for each new server made
 * creating 1 000 servers take quadratic time (issue 12). A deleted server's
 * uid stays taken until the daemon restarts: not handing it straight to the
 * next server is no loss (files it left elsewhere stay its own).
 */
const taken = new Map<string, Set<number>>();

async function uidsTakenIn(serversDir: string): Promise<Set<number>> {
  let used = taken.get(serversDir);
  if (!used) {
    used = new Set<number>();
    for (const name of await fs.readdir(serversDir)) {
      const other = await fs.stat(path.join(serversDir, name)).catch(() => undefined);
      if (other?.isDirectory() && isServerUid(other.uid)) used.add(other.uid);
    }
    taken.set(serversDir, used);
  }
  return used;
}

/**
 * The owner of a server's folder, giving it a free uid first when it has none
 * (a new server, or one made before servers had their own). Undefined when the
 * daemon is not root: the server then runs as the daemon's own uid.
 */
export function ensureServerOwner(
  serversDir: string,
  root: string,
  block: UidBlock | undefined,
): Promise<Owner | undefined> {
  if (!runsAsRoot()) return Promise.resolve(undefined);
  return oneAtATime(async () => {
    const stats = await fs.stat(root);
    if (isServerUid(stats.uid)) return { uid: stats.uid, gid: stats.gid };
    const owner = await freeOwner(serversDir, block);
    await chownTree(root, owner.uid, owner.gid);
    // Only the server (and root) may look inside.
    await fs.chmod(root, 0o700);
    return owner;
  });
}

/**
 * A free uid for a server whose files are still being put together (a move's
 * staging folder gives them to it as it tidies them); undefined when the
 * daemon is not root. The folder's owner then says it, as for any other.
 */
export function newServerOwner(serversDir: string, block: UidBlock | undefined): Promise<Owner | undefined> {
  if (!runsAsRoot()) return Promise.resolve(undefined);
  return oneAtATime(() => freeOwner(serversDir, block));
}

// One at a time, so two new servers never pick the same free uid.
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work);
  queue = next.catch(() => {});
  return next;
}

async function freeOwner(serversDir: string, block: UidBlock | undefined): Promise<Owner> {
  if (!block) throw new Error("the node has no block of server uids");
  const used = await uidsTakenIn(serversDir);
  let uid = block.first;
  while (used.has(uid)) uid++;
  if (uid >= block.first + block.count) throw new Error("the node's block of server uids is full");
  used.add(uid);
  return { uid, gid: uid };
}

/** Gives a whole tree to one owner, links themselves rather than what they point to. */
export async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await fs.lchown(dir, uid, gid);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(at, uid, gid);
    else await fs.lchown(at, uid, gid);
  }
}
