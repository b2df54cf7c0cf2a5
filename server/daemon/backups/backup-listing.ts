import fs from "node:fs/promises";
import path from "node:path";
import { backupFileNamePattern, type NodeBackupView } from "../../contract/node/backup-wire.ts";
import { objectSuffix } from "./adopted-objects.ts";
import { readFacts } from "./backup-facts.ts";
import { exists, factsView, failedSuffix, partSuffix, taskSuffix } from "./backup-rules.ts";
import type { S3Backups } from "./s3-target.ts";

/**
 * Every backup a node holds for a server, as its folder and its bucket say: finished (a file,
 * an object under the prefix, or an adopted object's note), failed (a `.failed` note), or being
 * written (`active`, by file name, with the bytes written so far). A `.part` left by a node that
 * stopped while writing it becomes a failure here.
 */
export async function listBackups(
  serverId: string,
  folder: string,
  s3: S3Backups | undefined,
  active: Map<string, number>,
  isWriting: (fileName: string) => boolean,
): Promise<NodeBackupView[]> {
  const names = await fs.readdir(folder).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [] as string[];
    throw error;
  });
  const ready = new Map<string, NodeBackupView>();
  const failed = new Map<string, NodeBackupView>();
  const labels = new Set(names.filter((n) => n.endsWith(taskSuffix)));
  const taskOf = async (fileName: string) =>
    labels.has(fileName + taskSuffix)
      ? await fs.readFile(path.join(folder, fileName + taskSuffix), "utf8").catch(() => undefined)
      : undefined;
  for (const entry of names) {
    const file = path.join(folder, entry);
    if (backupFileNamePattern.test(entry)) {
      const stats = await fs.stat(file).catch(() => undefined);
      const task = await taskOf(entry);
      if (stats) {
        const facts = await readFacts(file);
        ready.set(entry, {
          fileName: entry,
          state: "ready",
          size: stats.size,
          createdAt: facts?.finishedAt || Math.round(stats.mtimeMs),
          ...(task !== undefined ? { task } : {}),
          ...factsView(facts),
        });
      }
    } else if (
      entry.endsWith(failedSuffix) &&
      backupFileNamePattern.test(entry.slice(0, -failedSuffix.length))
    ) {
      const fileName = entry.slice(0, -failedSuffix.length);
      const reason = await fs.readFile(file, "utf8").catch(() => "");
      failed.set(fileName, { fileName, state: "failed", size: 0, error: reason.slice(0, 1000) });
    } else if (
      s3 &&
      entry.endsWith(objectSuffix) &&
      backupFileNamePattern.test(entry.slice(0, -objectSuffix.length))
    ) {
      // Adopted from another panel: in the bucket, but not under the prefix the listing reads.
      const fileName = entry.slice(0, -objectSuffix.length);
      const facts = await readFacts(path.join(folder, fileName));
      const task = await taskOf(fileName);
      if (facts && !names.includes(fileName))
        ready.set(fileName, {
          fileName,
          state: "ready",
          size: facts.size,
          createdAt: facts.finishedAt,
          ...(task !== undefined ? { task } : {}),
          ...factsView(facts),
        });
    } else if (entry.endsWith(partSuffix) && backupFileNamePattern.test(entry.slice(0, -partSuffix.length))) {
      const fileName = entry.slice(0, -partSuffix.length);
      if (!isWriting(fileName) && !(await exists(path.join(folder, fileName)))) {
        // Left by a node that stopped while writing it.
        const error = "the node stopped while the backup was being written";
        await fs.rm(file, { force: true });
        await fs.writeFile(path.join(folder, fileName + failedSuffix), error).catch(() => {});
        failed.set(fileName, { fileName, state: "failed", size: 0, error });
      }
    }
  }
  for (const found of s3 ? await s3.list(serverId) : []) {
    const task = await taskOf(found.fileName);
    const facts = await readFacts(path.join(folder, found.fileName));
    ready.set(found.fileName, {
      fileName: found.fileName,
      state: "ready",
      size: found.size,
      createdAt: facts?.finishedAt || found.createdAt,
      ...(task !== undefined ? { task } : {}),
      ...factsView(facts),
    });
  }
  const views = new Map<string, NodeBackupView>([...failed, ...ready]);
  for (const [fileName, written] of active) {
    views.set(fileName, { fileName, state: "creating", size: written });
  }
  return [...views.values()];
}
