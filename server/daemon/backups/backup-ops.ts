import fs from "node:fs/promises";
import path from "node:path";
import { ApiError } from "../../errors.ts";
import {
  type BackupBytes,
  backupFileNamePattern,
  type NodeBackups,
  type NodeBackupView,
} from "../../node-wire/backup-wire.ts";
import type { ServerInstance } from "../runtime/instance.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { type BackupProgress, writeBackupArchive } from "./backup-archive.ts";
import { backupMissing, restoreBackup } from "./backup-restore.ts";
import { failureReason } from "./failure-reason.ts";

const partSuffix = ".part";
const failedSuffix = ".failed";
/** Beside a backup a task made: the task's name. */
const taskSuffix = ".task";

const badName = () =>
  new ApiError(400, "ErrBackupNameInvalid", "a backup file name is a UUID followed by .tar.gz");
const stillWriting = () => new ApiError(409, "ErrBackupInProgress", "this backup is still being written");

function checkFileName(fileName: string): string {
  if (!backupFileNamePattern.test(fileName)) throw badName();
  return fileName;
}

/**
 * Backup and restore share the reference's idle check (§5.2): a running
 * server is refused with 400 ErrBackupServerRunning, one that installs,
 * backs up or restores with 409 ErrBackupInProgress.
 */
function refuseUnlessIdle(instance: ServerInstance): void {
  const { running, installing } = instance.status();
  if (running || instance.busy === "starting") {
    throw new ApiError(400, "ErrBackupServerRunning", "stop the server before a backup or restore");
  }
  if (installing || instance.busy) {
    throw new ApiError(
      409,
      "ErrBackupInProgress",
      "a backup, restore or install of this server is in progress",
    );
  }
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/**
 * Backups of this node's servers: `<backups>/<serverId>/<uuid>.tar.gz`. A
 * backup is written as `<name>.part` and renamed when complete; a failure
 * leaves `<name>.failed` holding the reason. So the folder itself says what
 * is finished and what failed, across restarts; only the progress of the
 * backups being written lives in memory. LocalNode calls this in-process and
 * the daemon's routes call the same, so both kinds of node keep one set of
 * rules.
 */
export class BackupOps implements NodeBackups {
  /** Backups being written, by `serverId/fileName`. */
  private readonly writing = new Map<string, BackupProgress>();
  /** The backup each server is being restored from. */
  private readonly restoring = new Map<string, string>();

  constructor(
    readonly store: ServerStore,
    readonly backupsDir: string,
  ) {
    store.afterDelete.push((id) => this.removeAll(id));
    // A server's backups count toward its disk limit.
    store.diskFolders.push((id) => this.folder(id));
  }

  private folder(serverId: string): string {
    return path.join(this.backupsDir, serverId);
  }

  async create(serverId: string, fileName: string): Promise<void> {
    await this.begin(serverId, fileName);
  }

  /**
   * Starts a backup as create does; the answer holds its outcome (a task's
   * backup waits for it, then prunes older ones), rejected when it failed.
   */
  async begin(serverId: string, fileName: string, task?: string): Promise<{ done: Promise<void> }> {
    const name = checkFileName(fileName);
    const server = this.store.get(serverId);
    refuseUnlessIdle(server.instance);
    const target = path.join(this.folder(serverId), name);
    const key = `${serverId}/${name}`;
    if (this.writing.has(key) || (await exists(target))) {
      throw new ApiError(409, "ErrFileExists", "backup ${fileName} already exists", { fileName: name });
    }
    await fs.mkdir(this.folder(serverId), { recursive: true });
    await fs.rm(target + failedSuffix, { force: true });
    await fs.rm(target + partSuffix, { force: true });
    if (task !== undefined) await fs.writeFile(target + taskSuffix, task);
    // A server at its disk limit is refused up front; one that reaches it while writing fails then.
    // The budget shares the server's room with its other writes in flight, and ends with the backup.
    const budget = await server.disk.budget();
    let kept = false;
    // From here on nothing waits until the server is marked busy, so two
    // creates at once cannot both pass the check.
    try {
      refuseUnlessIdle(server.instance);
    } catch (error) {
      budget?.end(false);
      throw error;
    }
    const progress: BackupProgress = { read: 0, written: 0 };
    this.writing.set(key, progress);
    const { instance } = server;
    instance.notice("Backing up server");
    const work = instance.whileBusy("backup", async () => {
      const part = target + partSuffix;
      try {
        await writeBackupArchive(
          server.sandbox,
          part,
          progress,
          (place, why) => instance.notice(`Backup left out ${place}: ${why}`),
          { limit: budget?.limiter() },
        );
        await fs.rename(part, target);
        kept = true;
      } catch (error) {
        await fs.rm(part, { force: true });
        throw error;
      } finally {
        budget?.end(kept);
      }
    });
    const done = work
      .then(
        () => instance.notice("Backup complete"),
        async (error: unknown) => {
          const reason = failureReason(error, {
            [server.root]: "the server folder",
            [this.folder(serverId)]: "the backups folder",
          });
          instance.notice(`Backup failed: ${reason}`);
          await fs.writeFile(target + failedSuffix, reason).catch(() => {});
          // A task's failed backup is in the task's run; the panel lists only those that exist.
          await fs.rm(target + taskSuffix, { force: true });
          server.announce("backupFailed");
          throw new ApiError(500, "ErrBackupFailed", "backup failed: ${reason}", { reason });
        },
      )
      // Only once the outcome is on disk, so a status answer never finds neither.
      .finally(() => this.writing.delete(key));
    done.catch(() => {});
    return { done };
  }

  async list(serverId: string): Promise<NodeBackupView[]> {
    this.store.get(serverId);
    // Taken before the folder is read: a backup finishing meanwhile still shows (as creating).
    const active = new Map(
      [...this.writing]
        .filter(([key]) => key.startsWith(`${serverId}/`))
        .map(([key, progress]) => [key.slice(serverId.length + 1), progress.written]),
    );
    const folder = this.folder(serverId);
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
          ready.set(entry, {
            fileName: entry,
            state: "ready",
            size: stats.size,
            ...(task !== undefined ? { task, createdAt: Math.round(stats.mtimeMs) } : {}),
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
        entry.endsWith(partSuffix) &&
        backupFileNamePattern.test(entry.slice(0, -partSuffix.length))
      ) {
        const fileName = entry.slice(0, -partSuffix.length);
        if (!this.writing.has(`${serverId}/${fileName}`) && !(await exists(path.join(folder, fileName)))) {
          // Left by a node that stopped while writing it.
          const error = "the node stopped while the backup was being written";
          await fs.rm(file, { force: true });
          await fs.writeFile(path.join(folder, fileName + failedSuffix), error).catch(() => {});
          failed.set(fileName, { fileName, state: "failed", size: 0, error });
        }
      }
    }
    const views = new Map<string, NodeBackupView>([...failed, ...ready]);
    for (const [fileName, written] of active) {
      views.set(fileName, { fileName, state: "creating", size: written });
    }
    return [...views.values()];
  }

  async restore(serverId: string, fileName: string): Promise<void> {
    const name = checkFileName(fileName);
    const server = this.store.get(serverId);
    refuseUnlessIdle(server.instance);
    const target = path.join(this.folder(serverId), name);
    if (!(await exists(target))) throw backupMissing();
    refuseUnlessIdle(server.instance);
    const { instance } = server;
    this.restoring.set(serverId, name);
    try {
      await instance.whileBusy("restore", async () => {
        instance.notice("Restoring backup");
        try {
          await restoreBackup(server.root, target);
        } finally {
          server.disk.forget();
        }
      });
      instance.notice("Backup restored");
    } catch (error) {
      instance.notice(`Restore failed: ${(error as ApiError).metadata?.reason ?? (error as Error).message}`);
      throw error;
    } finally {
      this.restoring.delete(serverId);
    }
  }

  async delete(serverId: string, fileName: string): Promise<void> {
    const name = checkFileName(fileName);
    this.store.get(serverId);
    if (this.writing.has(`${serverId}/${name}`)) throw stillWriting();
    if (this.restoring.get(serverId) === name) {
      throw new ApiError(409, "ErrBackupInProgress", "the server is being restored from this backup");
    }
    const target = path.join(this.folder(serverId), name);
    await fs.rm(target, { force: true });
    await fs.rm(target + failedSuffix, { force: true });
    await fs.rm(target + taskSuffix, { force: true });
    // Backups count toward the disk limit: the room they leave is seen at once.
    this.store.get(serverId).disk.forget();
  }

  async download(serverId: string, fileName: string): Promise<BackupBytes> {
    const name = checkFileName(fileName);
    this.store.get(serverId);
    if (this.writing.has(`${serverId}/${name}`)) throw stillWriting();
    const handle = await fs.open(path.join(this.folder(serverId), name), "r").catch((error) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw backupMissing();
      throw error;
    });
    try {
      const { size } = await handle.stat();
      // The stream closes the handle when it ends or is destroyed.
      return { size, body: handle.createReadStream({ highWaterMark: 256 * 1024 }) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** A deleted server's backups go with it. */
  private async removeAll(serverId: string): Promise<void> {
    await fs.rm(this.folder(serverId), { recursive: true, force: true });
  }
}
