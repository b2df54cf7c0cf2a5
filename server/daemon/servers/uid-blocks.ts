import fs from "node:fs";
import path from "node:path";

/**
 * Every node on a host gets its own block of server uids, so servers of two
 * nodes (or of two panels' local nodes) on one machine never share a uid and
 * cannot read each other's files. The blocks are handed out by one host-wide
 * registry file, written under a lock: `<servers folder> → block number`.
 * A block whose servers folder is gone is free again. A node whose servers
 * already have uids (made before blocks existed) keeps the block they are in
 * when no other node holds it; its servers keep their uids in every case (the
 * folder's owner says which uid a server has).
 */
export const firstServerUid = 600_000;
export const uidsPerBlock = 100_000;
const blockCount = 10_000;

export interface UidBlock {
  /** Index in the registry; the block's uids are first … first + count - 1. */
  index: number;
  first: number;
  count: number;
}

/** Any uid a node of this host may have given a server (for folders made before blocks, or by another node). */
export const isServerUid = (uid: number): boolean =>
  uid >= firstServerUid && uid < firstServerUid + uidsPerBlock * blockCount;

export const blockOf = (index: number): UidBlock => ({
  index,
  first: firstServerUid + index * uidsPerBlock,
  count: uidsPerBlock,
});

/** Where the host keeps the registry (root only): the same for every node and panel on the machine, apart from any data folder. */
export const defaultRegistry = "/var/lib/outpost-uids/blocks.json";

type Registry = Record<string, number>;

/** The block of the node whose servers live in `serversDir`, registering it on first use. */
export function nodeUidBlock(serversDir: string, registry = defaultRegistry): UidBlock {
  const key = fs.realpathSync(serversDir);
  const existingUids = fs
    .readdirSync(serversDir)
    .map((name) => fs.statSync(path.join(serversDir, name), { throwIfNoEntry: false }))
    .filter((stats) => stats?.isDirectory())
    .map((stats) => stats?.uid ?? 0);
  return withLock(registry, () => {
    const blocks = readRegistry(registry);
    if (blocks[key] !== undefined) return blockOf(blocks[key]);
    // A servers folder that is gone frees its block.
    for (const dir of Object.keys(blocks)) {
      if (!fs.existsSync(dir)) delete blocks[dir];
    }
    const held = new Set(Object.values(blocks));
    const preferred = existingUids
      .filter(isServerUid)
      .map((uid) => Math.floor((uid - firstServerUid) / uidsPerBlock))
      .find((index) => !held.has(index));
    let index = preferred ?? 0;
    while (held.has(index)) index++;
    if (index >= blockCount) throw new Error(`no free block of server uids left in ${registry}`);
    blocks[key] = index;
    writeRegistry(registry, blocks);
    return blockOf(index);
  });
}

function readRegistry(file: string): Registry {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new Error(`cannot read the server uid registry ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function writeRegistry(file: string, blocks: Registry): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(blocks, null, 1)}\n`, { mode: 0o644 });
  fs.renameSync(temp, file);
}

/** A lock file made with O_EXCL; one left by a process that died is taken over after a while. */
function withLock<T>(registry: string, work: () => T): T {
  fs.mkdirSync(path.dirname(registry), { recursive: true, mode: 0o755 });
  const lock = `${registry}.lock`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, "wx", 0o644));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10_000) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`the server uid registry stays locked (${lock})`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
