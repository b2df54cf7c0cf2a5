import fs from "node:fs/promises";
import path from "node:path";
import type { BackupAdoption, NodeBackupView } from "../../contract/node/backup-wire.ts";
import { privateFileMode } from "../../secrets/private-files.ts";
import { readFacts, writeFacts } from "./backup-facts.ts";
import { backupMissing } from "./backup-restore.ts";
import { readyView } from "./backup-rules.ts";
import type { S3Backups } from "./s3-target.ts";

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

/**
 * Adopts the object as the backup `target` (in its server's folder, which exists): its size
 * from a HEAD (404 ErrBackupNotFound when there is none), its facts what the other panel knew,
 * then the note. Adopted `before` with the same key: its facts are kept (a pin since, a SHA-256).
 */
export async function adoptObject(
  s3: S3Backups,
  target: string,
  adoption: BackupAdoption,
  before: boolean,
): Promise<NodeBackupView> {
  const size = await s3.size(adoption.key);
  if (size === undefined) throw backupMissing();
  const facts = (before && (await readFacts(target))) || {
    sha256: "",
    size,
    whileRunning: false,
    leftOut: 0,
    pinned: adoption.pinned,
    finishedAt: adoption.createdAt,
  };
  await writeFacts(target, facts);
  await writeAdopted(target, adoption);
  return readyView(path.basename(target), facts.size, facts);
}

/** A deleted server's adopted objects go with it, as its own do (best effort: an unreachable bucket keeps them). */
export async function deleteAdoptedObjects(folder: string, s3: S3Backups): Promise<void> {
  for (const entry of await fs.readdir(folder).catch(() => [] as string[])) {
    if (!entry.endsWith(objectSuffix)) continue;
    const adopted = await readAdopted(path.join(folder, entry.slice(0, -objectSuffix.length)));
    if (adopted) await s3.deleteKey(adopted.key).catch(() => {});
  }
}

/** Written whole then renamed, after the facts: a backup is never listed without them. */
async function writeAdopted(backupFile: string, adoption: BackupAdoption): Promise<void> {
  const note: AdoptedObject = { key: adoption.key, ...(adoption.sha1 ? { sha1: adoption.sha1 } : {}) };
  const temporary = `${backupFile}${objectSuffix}.new`;
  await fs.writeFile(temporary, JSON.stringify(note), { mode: privateFileMode });
  await fs.rename(temporary, backupFile + objectSuffix);
}
