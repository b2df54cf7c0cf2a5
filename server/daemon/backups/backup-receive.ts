import { createHash } from "node:crypto";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { BackupReceipt, NodeBackupView } from "../../contract/node/backup-wire.ts";
import { ApiError, errorText } from "../../errors.ts";
import type { DiskLedger } from "../servers/disk-ledger.ts";
import type { BackupProgress } from "./backup-archive.ts";
import { type BackupFacts, factsSuffix, writeFacts } from "./backup-facts.ts";
import { readBackupArchive } from "./backup-read.ts";
import { partSuffix, readyView } from "./backup-rules.ts";

const refused = (reason: string) =>
  new ApiError(500, "ErrBackupFailed", "backup failed: ${reason}", { reason });

/**
 * Writes another panel's backup (a Wings archive from its node's disk) as `target`: the body
 * into `<target>.part`, counted toward the server's disk limit and hashed on the way in; then
 * checked (the SHA-1 Wings recorded, and that it reads through as a gzip tar) before its facts
 * are written and it is renamed into place. Anything short of that removes the part.
 */
export async function receiveBackup(
  disk: DiskLedger,
  target: string,
  body: Readable,
  receipt: BackupReceipt,
  progress: BackupProgress,
): Promise<NodeBackupView> {
  const part = target + partSuffix;
  const sha256 = createHash("sha256");
  const sha1 = createHash("sha1");
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      progress.written += chunk.length;
      sha256.update(chunk);
      sha1.update(chunk);
      done(null, chunk);
    },
  });
  const facts = await disk.withBudget(async (budget) => {
    try {
      const file = fsSync.createWriteStream(part, { flags: "wx" });
      if (budget) await pipeline(body, count, budget.limiter(), file);
      else await pipeline(body, count, file);
      if (receipt.sha1 && sha1.digest("hex") !== receipt.sha1)
        throw refused("its SHA-1 is not the one the panel it came from recorded");
      try {
        await readBackupArchive(fsSync.createReadStream(part, { highWaterMark: 256 * 1024 }), () => {});
      } catch (error) {
        throw refused(`the archive cannot be read: ${errorText(error)}`);
      }
      const kept: BackupFacts = {
        sha256: sha256.digest("hex"),
        size: progress.written,
        whileRunning: false,
        leftOut: 0,
        pinned: receipt.pinned,
        finishedAt: receipt.createdAt,
      };
      await writeFacts(target, kept);
      await fs.rename(part, target);
      return kept;
    } catch (error) {
      if (!body.destroyed) body.resume();
      await fs.rm(part, { force: true });
      await fs.rm(target + factsSuffix, { force: true });
      throw error;
    }
  }, true);
  return readyView(path.basename(target), facts.size, facts);
}
