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

/**
 * A server's Wings volume on this host (`<volumes>/<uuid>`); undefined when it has no folder here.
 * Links are not followed (a volume's link may point anywhere on the host).
 */
export function localVolume(volumes: string, uuid: string): VolumeSource | undefined {
  const root = path.join(volumes, uuid);
  if (!/^[0-9a-f-]{36}$/i.test(uuid) || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory())
    return undefined;
  return {
    async list(relative) {
      return fs.readdirSync(path.join(root, relative), { withFileTypes: true }).map((entry) => ({
        name: entry.name,
        kind: entry.isDirectory() ? "folder" : entry.isFile() ? "file" : "other",
        size: entry.isFile() ? fs.statSync(path.join(root, relative, entry.name)).size : 0,
      }));
    },
    async open(relative) {
      return fs.createReadStream(path.join(root, relative));
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
