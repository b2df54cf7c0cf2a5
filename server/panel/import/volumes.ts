import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { FileEntry, NodeFiles } from "../../contract/node/file-wire.ts";

export interface VolumeCopy {
  copied: number;
  /** Files already there with the same size (a run that was cut short goes on after them). */
  same: number;
  bytes: number;
}

/** One entry of a folder of a server's old volume. */
export interface VolumeEntry {
  name: string;
  kind: "folder" | "file" | "other";
  size: number;
}

/** Where a server's old files are read: its Wings volume on this host, or over its Wings node's SFTP. */
export interface VolumeSource {
  /** The entries of a folder ("" the volume's root). */
  list(relative: string): Promise<VolumeEntry[]>;
  open(relative: string): Promise<Readable>;
}

const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = fs.constants;

/**
 * Opens a file or folder of the volume so that a link swapped in after it was listed is never
 * followed: the last name with O_NOFOLLOW, and the path the descriptor really has (/proc) must
 * still lie inside the volume, so a folder on the way made a link is caught too. Answers the
 * descriptor, or undefined when it is no longer what it was listed as.
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
 * A server's Wings volume on this host (`<volumes>/<uuid>`); undefined when it has no folder here.
 * Links are not followed (a volume's link may point anywhere on the host): neither those there
 * from the start nor those its game, which may still run on the old panel, swaps in for a file
 * or folder after it was listed (openInside) — the import runs as root and would copy the host's
 * files (the panel's secret.key) into the server.
 */
export function localVolume(volumes: string, uuid: string): VolumeSource | undefined {
  const root = path.join(volumes, uuid);
  if (!/^[0-9a-f-]{36}$/i.test(uuid) || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory())
    return undefined;
  const realRoot = fs.realpathSync(root);
  return {
    async list(relative) {
      const dir = openInside(realRoot, path.join(root, relative), true);
      if (dir === undefined) return [];
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(`/proc/self/fd/${dir}`, { withFileTypes: true });
      } finally {
        fs.closeSync(dir);
      }
      return entries.map((entry) => ({
        name: entry.name,
        kind: entry.isDirectory() ? "folder" : entry.isFile() ? "file" : "other",
        size: entry.isFile() ? fs.lstatSync(path.join(root, relative, entry.name)).size : 0,
      }));
    },
    async open(relative) {
      const fd = openInside(realRoot, path.join(root, relative), false);
      if (fd === undefined) throw new Error(`${relative} is no longer a file of the volume`);
      return fs.createReadStream("", { fd });
    },
  };
}

/** Told after each file written, for the run's progress lines. */
export type CopyProgress = (copy: VolumeCopy, file: string) => void;

/**
 * A server's old files into its folder on its node, through the node's file calls (so through
 * its sandbox). A file already there with the same size is left alone, so a second run goes on
 * where one stopped; each written file is listed again and must have its size.
 */
export async function copyVolume(
  source: VolumeSource,
  files: NodeFiles,
  serverId: string,
  progress?: CopyProgress,
): Promise<VolumeCopy> {
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
    for (const entry of await source.list(relative)) {
      // A name is one path segment (an SFTP server answers what it likes; the node's sandbox holds anyway).
      if (entry.name === "" || entry.name === "." || entry.name === ".." || entry.name.includes("/"))
        continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.kind === "folder") {
        await walk(child);
        continue;
      }
      if (entry.kind !== "file") continue;
      const existing = there.get(entry.name);
      if (existing?.isFile && existing.size === entry.size) {
        result.same += 1;
        continue;
      }
      await files.write(serverId, child, await source.open(child));
      const written = (await listing(relative)).get(entry.name);
      if (written?.size !== entry.size)
        throw new Error(`${child} has ${written?.size ?? 0} bytes on the node, ${entry.size} there`);
      result.copied += 1;
      result.bytes += entry.size;
      progress?.(result, child);
    }
  };
  await walk("");
  return result;
}
