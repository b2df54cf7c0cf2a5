import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { ApiError } from "../../errors.ts";
import { extractOpened, extractTarStream } from "../archive/index.ts";
import { Sandbox } from "../sandbox/index.ts";
import { failureReason } from "./failure-reason.ts";
import { removePartialRestoreLeftovers } from "./partial-restore.ts";

/**
 * Replaces a server folder's content with a backup's, all or nothing.
 *
 * The reference deletes everything in the folder and then extracts, so a
 * corrupt or unreadable backup leaves a server with half its files. Here the
 * archive is extracted into a fresh folder beside the server's (same file
 * system), through a sandbox rooted there with the safe extractor; only when
 * every entry is written are the folders swapped by two renames (server →
 * old, new → server) and the old one removed. Any failure before the swap
 * removes the new folder and leaves the server's files exactly as they were.
 */
export async function restoreBackup(
  root: string,
  archive: string | (() => Promise<Readable>),
  signal?: AbortSignal,
): Promise<number> {
  const parent = path.dirname(root);
  const base = path.basename(root);
  const tag = randomBytes(6).toString("hex");
  // Dot names are never server ids (definition-file.ts), so these cannot meet a server's folder.
  const staging = path.join(parent, `.${base}.restore-${tag}`);
  const old = path.join(parent, `.${base}.old-${tag}`);
  const rootStats = await fs.stat(root).catch(() => undefined);
  const mode = rootStats ? rootStats.mode & 0o7777 : 0o755;
  // A backup in object storage is read as a stream (opened here, so a missing one changes nothing).
  const handle =
    typeof archive === "string"
      ? await fs.open(archive, "r").catch((error) => {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") throw backupMissing();
          throw error;
        })
      : await archive();
  let entries: number;
  try {
    await fs.mkdir(staging, { mode });
    // The restored files belong to the server's own user, as the ones they replace (the sandbox hands them over).
    if (rootStats) await fs.chown(staging, rootStats.uid, rootStats.gid);
    try {
      // The node's own backup: no ratio (a world compresses far), only the free space bounds it.
      entries =
        handle instanceof Readable
          ? await extractTarStream(new Sandbox(staging), handle, "tar.gz", "", { signal, ownFolder: true })
          : await extractOpened(handle, "tar.gz", new Sandbox(staging), "", signal, 0, {
              ratio: Number.POSITIVE_INFINITY,
              ownFolder: true,
            });
    } catch (error) {
      await fs.rm(staging, { recursive: true, force: true, maxRetries: 5 });
      throw new ApiError(
        500,
        "ErrBackupRestoreFailed",
        "the backup could not be restored (${reason}); the server's files were not changed",
        {
          reason: failureReason(error, {
            [staging]: "the new folder",
            ...(typeof archive === "string" ? { [path.dirname(archive)]: "backups" } : {}),
          }),
        },
        { cause: error },
      );
    }
  } finally {
    if (handle instanceof Readable) handle.destroy();
    else await handle.close();
  }
  await fs.chmod(staging, mode);
  let hadFolder = true;
  try {
    await fs.rename(root, old);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      await fs.rm(staging, { recursive: true, force: true, maxRetries: 5 });
      throw error;
    }
    hadFolder = false;
  }
  try {
    await fs.rename(staging, root);
  } catch (error) {
    if (hadFolder) await fs.rename(old, root);
    await fs.rm(staging, { recursive: true, force: true, maxRetries: 5 });
    throw error;
  }
  if (hadFolder) await fs.rm(old, { recursive: true, force: true });
  return entries;
}

export const backupMissing = () => new ApiError(404, "ErrBackupNotFound", "the node has no such backup");

/**
 * Finishes what a restore cut short by a crash, before the node loads its
 * servers: a server folder moved aside (`.<id>.old-*`) with nothing swapped in
 * goes back; one left behind after a complete swap, and any half-extracted
 * `.<id>.restore-*` folder, is removed, and so is what a deletion cut short
 * left (`.<id>.deleted-*`). Answers what it did, for the log.
 */
export async function recoverInterruptedRestores(serversDir: string): Promise<string[]> {
  const done: string[] = [];
  const names = await fs.readdir(serversDir).catch(() => [] as string[]);
  for (const name of names) {
    const match = /^\.(.+)\.(old|restore|deleted)-[0-9a-f]+$/.exec(name);
    if (!match) {
      if (!name.startsWith(".") && (await removePartialRestoreLeftovers(path.join(serversDir, name)))) {
        done.push(`server ${name}: removed what an interrupted restore of some of its files left behind`);
      }
      continue;
    }
    const [, id, kind] = match;
    const leftover = path.join(serversDir, name);
    const root = path.join(serversDir, id);
    const rootExists = await fs.stat(root).then(
      () => true,
      () => false,
    );
    if (kind === "old" && !rootExists) {
      await fs.rename(leftover, root);
      done.push(`server ${id}: a restore was interrupted; its previous files were put back`);
    } else {
      await fs.rm(leftover, { recursive: true, force: true });
      done.push(
        kind === "deleted"
          ? `server ${id}: removed the rest of its deleted files`
          : `server ${id}: removed what an interrupted restore left behind`,
      );
    }
  }
  return done;
}
