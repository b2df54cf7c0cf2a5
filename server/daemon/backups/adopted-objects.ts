import fs from "node:fs/promises";
import type { BackupAdoption } from "../../contract/node/backup-wire.ts";
import { privateFileMode } from "../../secrets/private-files.ts";

/**
 * Beside a backup adopted from another panel (`<name>.object`): where its object is in the
 * bucket, and the SHA-1 that panel recorded. Such a backup was never written by this node, so
 * its key is not `<prefix><serverId>/<name>` and the bucket's listing under the prefix does
 * not find it: this note is what lists it, reads it and deletes it.
 */
export const objectSuffix = ".object";

export interface AdoptedObject {
  key: string;
  /** Hex; checked by the first verification, which then records the archive's SHA-256. */
  sha1?: string;
}

export async function readAdopted(backupFile: string): Promise<AdoptedObject | undefined> {
  try {
    const raw = JSON.parse(await fs.readFile(backupFile + objectSuffix, "utf8")) as Partial<AdoptedObject>;
    if (typeof raw.key !== "string" || !raw.key) return undefined;
    return { key: raw.key, ...(typeof raw.sha1 === "string" ? { sha1: raw.sha1 } : {}) };
  } catch {
    return undefined;
  }
}

/** Written whole then renamed, after the facts: a backup is never listed without them. */
export async function writeAdopted(backupFile: string, adoption: BackupAdoption): Promise<void> {
  const note: AdoptedObject = { key: adoption.key, ...(adoption.sha1 ? { sha1: adoption.sha1 } : {}) };
  const temporary = `${backupFile}${objectSuffix}.new`;
  await fs.writeFile(temporary, JSON.stringify(note), { mode: privateFileMode });
  await fs.rename(temporary, backupFile + objectSuffix);
}
