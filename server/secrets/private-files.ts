import fs from "node:fs";

/**
 * File modes for what only the panel's or the node's own user may read: the
 * database and its -wal/-shm, the secret key, server definitions, node config
 * files and host keys are 0600; the data folders that hold them are 0700.
 * Modes are set when a thing is made and corrected on every start, so a data
 * folder made by an older version (0644 files in a 0755 folder) is fixed too.
 */
export const privateFileMode = 0o600;
export const privateDirMode = 0o700;

/** Makes the folder (and missing parents) 0700, and narrows it to 0700 when it exists already. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: privateDirMode });
  narrow(dir, privateDirMode);
}

/** Narrows an existing file to 0600; a missing file is fine (it is made 0600 when it is made). */
export function ensurePrivateFile(file: string): void {
  narrow(file, privateFileMode);
}

/** Drops group and other bits only; a file that is already stricter keeps its mode. */
function narrow(target: string, mode: number): void {
  let current: number;
  try {
    current = fs.statSync(target).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if ((current & ~mode) !== 0) fs.chmodSync(target, current & mode);
}
