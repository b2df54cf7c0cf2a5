import fs from "node:fs";
import path from "node:path";
import type { FileEntry, NodeFiles } from "../../contract/node/file-wire.ts";

export interface VolumeCopy {
  copied: number;
  /** Files already there with the same size (a run that was cut short goes on after them). */
  same: number;
  bytes: number;
}

/**
 * A server's Wings volume (`<volumes>/<uuid>`, read on this host) into its folder on its node,
 * through the node's file calls (so through its sandbox). A file already there with the same
 * size is left alone, so a second run goes on where one stopped; each written file is listed
 * again and must have its size. Links are not followed (a volume's link may point anywhere on
 * the host). Answers undefined when the volume has no folder here.
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
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        await walk(child);
        continue;
      }
      if (!entry.isFile()) continue;
      const size = fs.statSync(path.join(root, child)).size;
      const existing = there.get(entry.name);
      if (existing?.isFile && existing.size === size) {
        result.same += 1;
        continue;
      }
      await files.write(serverId, child, fs.createReadStream(path.join(root, child)));
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
