import fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors.ts";
import { type Sandbox, sandboxErrors } from "../sandbox/index.ts";
import { insideOf } from "../sandbox/lexical.ts";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

export interface FolderEntry {
  name: string;
  /** lstat: a symlink is listed as a link, never as what it points to. */
  stats: fs.Stats;
}

/**
 * A folder of a server opened for listing, a few entries at a time (an SFTP
 * READDIR answers in batches, and a folder may hold very many files).
 *
 * The sandbox finds the folder; it is then opened with O_NOFOLLOW and the
 * kernel's name for the open descriptor must lie in the real root, as the
 * sandbox checks files at open time (sandbox/open.ts). Entries are then
 * read and stat'ed through /proc/self/fd/N, so the folder read is the one
 * checked even if its path is swapped for a symlink afterwards. Without
 * /proc (not Linux) the check is a dev/inode comparison and reading goes by
 * path.
 */
export class FolderReader {
  private constructor(
    private readonly handle: FileHandle,
    private readonly dir: fs.Dir,
    private readonly base: string,
  ) {}

  static async open(sandbox: Sandbox, userPath: string): Promise<FolderReader> {
    const location = await sandbox.resolve(userPath);
    if (!location.stats) throw sandboxErrors.notFound(userPath);
    if (!location.stats.isDirectory()) throw notAFolder(userPath);
    let handle: FileHandle;
    try {
      handle = await fsp.open(location.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw sandboxErrors.notFound(userPath);
      if (code === "ELOOP") throw sandboxErrors.illegal(userPath, "became a symlink while it was opened");
      if (code === "ENOTDIR") throw notAFolder(userPath);
      throw error;
    }
    try {
      const byDescriptor = `/proc/self/fd/${handle.fd}`;
      const real = await fsp.readlink(byDescriptor).catch(() => undefined);
      let base = location.path;
      if (real !== undefined) {
        if (insideOf(await fsp.realpath(sandbox.root), real) === undefined) throw movedOut(userPath);
        base = byDescriptor;
      } else {
        const [opened, named] = await Promise.all([handle.stat(), fsp.stat(location.path)]);
        if (opened.dev !== named.dev || opened.ino !== named.ino) throw movedOut(userPath);
      }
      return new FolderReader(handle, await fsp.opendir(base, { bufferSize: 64 }), base);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Up to `max` entries, or undefined once every entry was given. */
  async next(max: number): Promise<FolderEntry[] | undefined> {
    const entries: FolderEntry[] = [];
    while (entries.length < max) {
      const entry = await this.dir.read();
      if (!entry) break;
      // An entry removed since the folder was read is left out.
      const stats = await fsp.lstat(path.join(this.base, entry.name)).catch(() => undefined);
      if (stats) entries.push({ name: entry.name, stats });
    }
    return entries.length > 0 ? entries : undefined;
  }

  stat(): Promise<fs.Stats> {
    return this.handle.stat();
  }

  async close(): Promise<void> {
    await this.dir.close().catch(() => {});
    await this.handle.close().catch(() => {});
  }
}

const notAFolder = (userPath: string) =>
  new ApiError(400, "ErrGeneric", `${JSON.stringify(userPath)} is not a folder`);

const movedOut = (userPath: string) =>
  sandboxErrors.illegal(userPath, "was moved out of the server folder while it was opened");
