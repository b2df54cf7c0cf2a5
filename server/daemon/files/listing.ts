import fsp from "node:fs/promises";
import path from "node:path";
import type { FileEntry } from "../../contract/node/file-wire.ts";
import type { Location, Sandbox } from "../sandbox/index.ts";
import { isTempUpload } from "./temp-uploads.ts";

/**
 * Made with the first listing: a collator reads ICU's collation data (about 2 MiB of the
 * node binary), which an idle node would otherwise hold resident from its start.
 */
let collator: Intl.Collator | undefined;

/** Folders first, then files; each group by name, ignoring case, with numbers in numeric order. */
function byKindThenName(a: FileEntry, b: FileEntry): number {
  if (a.isFile !== b.isFile) return a.isFile ? 1 : -1;
  collator ??= new Intl.Collator("en", { numeric: true, sensitivity: "base" });
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * A folder's listing (reference §12.8). The folder is opened and checked to
 * be inside the root first, and read through that open handle
 * (/proc/self/fd/N): a folder swapped for a link to elsewhere between the
 * walk and the read is refused, never listed. Symlinks are shown as folders
 * or files by what they lead to inside the root; one leading out (or
 * nowhere) shows as a file, which then cannot be opened. An upload's
 * temporary file is not shown.
 */
export async function listFolder(sandbox: Sandbox, folder: Location, shown: string): Promise<FileEntry[]> {
  const { handle, base } = await sandbox.openResolvedFolder(folder, shown);
  try {
    const names = await fsp.readdir(base, { withFileTypes: true });
    const entries = await Promise.all(
      names.map(async (dirent): Promise<FileEntry | undefined> => {
        const name = dirent.name;
        if (dirent.isFile() && isTempUpload(name)) return undefined;
        if (dirent.isDirectory()) return { name, isFile: false };
        if (dirent.isSymbolicLink()) {
          const inside = folder.relative ? `${folder.relative}/${name}` : name;
          const target = await sandbox.resolve(inside).catch(() => undefined);
          return { name, isFile: !target?.stats?.isDirectory() };
        }
        const stats = await fsp.lstat(path.join(base, name)).catch(() => undefined);
        if (!stats) return undefined; // removed meanwhile
        const entry: FileEntry = {
          name,
          isFile: true,
          size: stats.size,
          modifyTime: Math.floor(stats.mtimeMs / 1000),
        };
        const extension = path.extname(name);
        if (extension) entry.extension = extension;
        return entry;
      }),
    );
    const listed = entries.filter((e): e is FileEntry => e !== undefined).sort(byKindThenName);
    return folder.relative === "" ? listed : [{ name: "..", isFile: false }, ...listed];
  } finally {
    await handle.close();
  }
}
