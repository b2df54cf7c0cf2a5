import fs from "node:fs";
import path from "node:path";
import type { FileEntry, NodeFiles } from "../../contract/node/file-wire.ts";

export interface VolumeCopy {
  copied: number;
  /** Files already there with the same size (a run that was cut short goes on after them). */
  same: number;
  bytes: number;
}

const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = fs.constants;

/**
 * Opens a file or folder of the volume so that a link swapped in after it was listed is never
 * followed: the last name with O_NOFOLLOW, and the path the descriptor really has (/proc) must
 * still lie inside the volume, so a folder on the way made a link is caught too. Answers the
 * descriptor, or undefined when it is no longer what it was listed as (it is then skipped).
 */
function openInside(realRoot: string, absolute: string, folder: boolean): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(absolute, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (folder ? O_DIRECTORY : 0));
  } catch {
    return undefined;
  }
  const real = fs.readlinkSync(`/proc/self/fd/${fd}`);
  const stats = fs.fstatSync(fd);
  const inside = real === realRoot || real.startsWith(`${realRoot}/`);
  if (inside && (folder ? stats.isDirectory() : stats.isFile())) return fd;
  fs.closeSync(fd);
  return undefined;
}

/**
 * A server's Wings volume (`<volumes>/<uuid>`, read on this host) into its folder on its node,
 * through the node's file calls (so through its sandbox). A file already there with the same
 * size is left alone, so a second run goes on where one stopped; each written file is listed
 * again and must have its size. Links are not followed (a volume's link may point anywhere on
 * the host), neither those there from the start nor those its game, which may still run on the
 * old panel, swaps in for a file or folder while the copy goes on (openInside). Answers undefined when the volume has no folder here.
 */
export async function copyVolume(
  volumes: string,
  uuid: string,
  files: NodeFiles,
  serverId: string,
): Promise<VolumeCopy | undefined> {
  const root = path.join(volumes, uuid);
  if (!/^[0-9a-f-]{36}$/i.test(uuid) || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory())
    return undefined;
  const realRoot = fs.realpathSync(root);
  const result: VolumeCopy = { copied: 0, same: 0, bytes: 0 };
  const listing = async (folder: string): Promise<Map<string, FileEntry>> => {
    try {
      const read = await files.read(serverId, folder);
      if (read.kind === "folder") return new Map(read.entries.map((e) => [e.name, e]));
      read.body.destroy();
    } catch {
      // Not there yet: made below.
    }
    return new Map();
  };
  const walk = async (relative: string): Promise<void> => {
    if (relative) await files.makeFolder(serverId, relative);
    const there = await listing(relative);
    const dir = openInside(realRoot, path.join(root, relative), true);
    if (dir === undefined) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(`/proc/self/fd/${dir}`, { withFileTypes: true });
    } finally {
      fs.closeSync(dir);
    }
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        await walk(child);
        continue;
      }
      if (!entry.isFile()) continue;
      const fd = openInside(realRoot, path.join(root, child), false);
      if (fd === undefined) continue;
      const size = fs.fstatSync(fd).size;
      const existing = there.get(entry.name);
      if (existing?.isFile && existing.size === size) {
        fs.closeSync(fd);
        result.same += 1;
        continue;
      }
      await files.write(serverId, child, fs.createReadStream("", { fd }));
      const written = (await listing(relative)).get(entry.name);
      if (written?.size !== size)
        throw new Error(`${child} has ${written?.size ?? 0} bytes on the node, ${size} here`);
      result.copied += 1;
      result.bytes += size;
    }
  };
  await walk("");
  return result;
}
