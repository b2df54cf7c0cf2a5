import type fs from "node:fs";
import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors.ts";
import { isTempUpload } from "../files/temp-uploads.ts";
import { type Sandbox, sandboxErrors } from "../sandbox/index.ts";

export interface FolderEntry {
  name: string;
  /** lstat: a symlink is listed as a link, never as what it points to. */
  stats: fs.Stats;
}

/**
 * A folder of a server opened for listing, a few entries at a time (an SFTP
 * READDIR answers in batches, and a folder may hold very many files).
 *
 * The sandbox finds the folder and opens it, checked at open time as files
 * are (sandbox/open.ts openFolder); entries are read and stat'ed by the name
 * it gives (/proc/self/fd/N on Linux), so the folder read is the one checked
 * even if its path is swapped for a symlink afterwards.
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
    const { handle, base } = await sandbox.openResolvedFolder(location, userPath);
    try {
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
      // An upload's temporary file is not shown (files/temp-uploads.ts).
      if (entry.isFile() && isTempUpload(entry.name)) continue;
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
