import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { ApiError, errorText } from "../../errors.ts";

/**
 * A server's disk limit (`limits.diskMiB`) and the folders it covers: the
 * server's own folder and its backups. What the daemon itself writes for the
 * server (file manager writes and uploads, SFTP, archives made and extracted,
 * backups) is held to it as it goes (disk-ledger.ts); what the game process
 * writes is measured by the watcher, which stops a server over it
 * (disk-watcher.ts).
 */
export interface DiskQuota {
  limitMiB?: number;
  folders: string[];
  /** Bytes outside the folders that count too (a docker server's container layers). */
  elsewhere?: () => Promise<number>;
}

/** The message, a template filled from the metadata as the reference's errors are. */
const diskLimitMessage =
  "the server's disk limit (${limit} MiB) would be exceeded; delete files or ask an administrator for more";

export const diskLimitReached = (limitMiB: number) =>
  new ApiError(507, "ErrDiskLimit", diskLimitMessage, { limit: limitMiB });

/** The disk-limit message with its limit filled in, for SFTP clients. */
export const diskLimitText = (limitMiB: number) => errorText(diskLimitReached(limitMiB));

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
