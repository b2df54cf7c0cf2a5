import fs from "node:fs/promises";
import { backupFileNamePattern, type NodeBackupView } from "../../contract/node/backup-wire.ts";
import { ApiError } from "../../errors.ts";
import type { ServerInstance } from "../runtime/instance.ts";
import type { BackupFacts } from "./backup-facts.ts";

// The rules BackupOps applies to names, places and a server's state (kept apart to keep it short).

export const partSuffix = ".part";
export const failedSuffix = ".failed";
/** Beside a backup a task made: the task's name. */
export const taskSuffix = ".task";

export const badName = () =>
  new ApiError(400, "ErrBackupNameInvalid", "a backup file name is a UUID followed by .tar.gz");
export const stillWriting = () =>
  new ApiError(409, "ErrBackupInProgress", "this backup is still being written");

/** A place inside a backup as its entries name it: root-relative, no `.` or `..` steps. */
export function backupPlace(raw: string): string {
  const parts = raw.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes(".."))
    throw new ApiError(400, "ErrIllegalFileAccess", "a place inside a backup has no ..");
  return parts.join("/");
}

export function checkFileName(fileName: string): string {
  if (!backupFileNamePattern.test(fileName)) throw badName();
  return fileName;
}

/**
 * A backup may be taken while the server runs (issue 38: the template's
 * hooks make it consistent; without them it is marked `whileRunning`); one
 * that installs, starts, backs up or restores is refused with 409
 * ErrBackupInProgress. A restore stops a running server first.
 */
export function refuseWhileBusy(instance: ServerInstance): void {
  if (instance.status().installing || instance.busy) {
    throw new ApiError(
      409,
      "ErrBackupInProgress",
      "a backup, restore or install of this server is in progress",
    );
  }
}

/** A backup's facts as the list carries them (none for a backup made before they were kept). */
export function factsView(facts: BackupFacts | undefined): Partial<NodeBackupView> {
  if (!facts) return {};
  const { sha256, whileRunning, leftOut, pinned } = facts;
  return { sha256, whileRunning, leftOut, pinned };
}

/** A finished backup's entry in the list, from its file's name and size and its facts. */
export function readyView(fileName: string, size: number, facts: BackupFacts | undefined): NodeBackupView {
  return { fileName, state: "ready", size, createdAt: facts?.finishedAt ?? 0, ...factsView(facts) };
}

export const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );
