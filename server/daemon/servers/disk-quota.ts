import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { ApiError } from "../../errors.ts";

/**
 * A server's disk limit (`limits.diskMiB`) and the folders it covers: the
 * server's own folder and its backups. It is checked by what the daemon
 * itself writes for the server: file manager writes and uploads, SFTP,
 * archives made and extracted, backups. (The game process is not stopped by
 * it; a quota of the file system would be the place for that.)
 */
export interface DiskQuota {
  limitMiB?: number;
  folders: string[];
}

/** The message, a template filled from the metadata as the reference's errors are. */
const diskLimitMessage =
  "the server's disk limit (${limit} MiB) would be exceeded; delete files or ask an administrator for more";

export const diskLimitReached = (limitMiB: number) =>
  new ApiError(507, "ErrDiskLimit", diskLimitMessage, { limit: limitMiB });

/** The disk-limit message with its limit filled in, for SFTP clients. */
export const diskLimitText = (limitMiB: number) => diskLimitMessage.replace("${limit}", String(limitMiB));

/**
 * Bytes under a folder: coreutils' `du` (apparent sizes, links not followed,
 * folders counted too), some ten times faster than a walk from here on a
 * large server; the walk where `du` is missing or answers nothing.
 */
export async function folderBytes(dir: string): Promise<number> {
  return (await duBytes(dir)) ?? walkBytes(dir);
}

function duBytes(dir: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    // A file vanishing under du makes it exit non-zero yet still print the total.
    execFile("du", ["-s", "-B1", "--apparent-size", "--", dir], { timeout: 60_000 }, (_error, stdout) => {
      const bytes = Number.parseInt(String(stdout).split("\t")[0], 10);
      resolve(Number.isFinite(bytes) && bytes >= 0 ? bytes : undefined);
    });
  });
}

/** Bytes of every file and link under a folder, found by walking it. */
export async function walkBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await walkBytes(at);
    else total += (await fs.lstat(at).catch(() => undefined))?.size ?? 0;
  }
  return total;
}

/**
 * What one piece of work (an upload, an extraction, a backup, an SFTP
 * session) may still write under the limit: measured once at its start, then
 * counted as its bytes go by, so a zip bomb or an endless upload stops where
 * the limit is rather than after it.
 */
export class DiskBudget {
  private spent = 0;

  constructor(
    readonly limitMiB: number,
    private readonly room: number,
  ) {}

  /** Counts `bytes` about to be written; fails with the disk-limit error past the room. */
  take(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.room) throw diskLimitReached(this.limitMiB);
  }

  /** A stream that passes bytes through and counts them against this budget. */
  limiter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        try {
          this.take(chunk.length);
          done(null, chunk);
        } catch (error) {
          done(error as Error);
        }
      },
    });
  }
}

/**
 * The budget of a piece of work, or undefined when the server has no disk
 * limit; refused up front when the folders already hold the limit.
 */
export async function diskBudget(quota: DiskQuota): Promise<DiskBudget | undefined> {
  if (quota.limitMiB === undefined) return undefined;
  let used = 0;
  for (const dir of quota.folders) used += await folderBytes(dir);
  const room = quota.limitMiB * 1024 * 1024 - used;
  if (room <= 0) throw diskLimitReached(quota.limitMiB);
  return new DiskBudget(quota.limitMiB, room);
}
