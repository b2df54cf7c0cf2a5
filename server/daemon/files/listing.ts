import fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors.ts";
import type { FileEntry } from "../../link/file-wire.ts";
import { type Location, type Sandbox, sandboxErrors } from "../sandbox/index.ts";
import { verifyHandle } from "../sandbox/open.ts";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/** Folders first, then files; each group by name, ignoring case, with numbers in numeric order. */
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
function byKindThenName(a: FileEntry, b: FileEntry): number {
  if (a.isFile !== b.isFile) return a.isFile ? 1 : -1;
  return collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * A folder's listing (reference §12.8). The folder is opened and checked to
 * be inside the root first, and read through that open handle
 * (/proc/self/fd/N): a folder swapped for a link to elsewhere between the
 * walk and the read is refused, never listed. Symlinks are shown as folders
 * or files by what they lead to inside the root; one leading out (or
 * nowhere) shows as a file, which then cannot be opened.
 */
export async function listFolder(sandbox: Sandbox, folder: Location, shown: string): Promise<FileEntry[]> {
  const realRoot = (await sandbox.resolve("")).path;
  let handle: FileHandle;
  try {
    handle = await fsp.open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw sandboxErrors.illegal(shown, "became a symlink while it was opened");
    if (code === "ENOENT") throw sandboxErrors.notFound(shown);
    if (code === "ENOTDIR")
      throw new ApiError(409, "ErrGeneric", `${JSON.stringify(shown)} changed while it was read`);
    throw error;
  }
  try {
    await verifyHandle(handle, { given: sandbox.root, real: realRoot }, folder, shown);
    const opened = `/proc/self/fd/${handle.fd}`;
    const base = fs.existsSync(opened) ? opened : folder.path;
    const names = await fsp.readdir(base, { withFileTypes: true });
    const entries = await Promise.all(
      names.map(async (dirent): Promise<FileEntry | undefined> => {
        const name = dirent.name;
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
