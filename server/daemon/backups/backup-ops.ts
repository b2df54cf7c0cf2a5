import { createHash } from "node:crypto";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type {
  BackupAdoption,
  BackupBytes,
  BackupEntryList,
  BackupPolicy,
  BackupReceipt,
  BackupVerdict,
  NodeBackups,
  NodeBackupView,
  S3BackupTarget,
} from "../../contract/node/backup-wire.ts";
import { ApiError } from "../../errors.ts";
import { privateFileMode } from "../../secrets/private-files.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { adoptObject, deleteAdoptedObjects, objectSuffix, readAdopted } from "./adopted-objects.ts";
import { type BackupProgress, backupArchiveStream, writeBackupArchive } from "./backup-archive.ts";
import { backupExclusions, type Exclusions } from "./backup-exclusions.ts";
import { type BackupFacts, factsSuffix, readFacts, writeFacts } from "./backup-facts.ts";
import { BackupKeeping } from "./backup-keeping.ts";
import { listBackups } from "./backup-listing.ts";
import { listBackupFolder, verifyBackup } from "./backup-read.ts";
import { receiveBackup } from "./backup-receive.ts";
import { backupMissing, restoreBackup } from "./backup-restore.ts";
import {
  backupPlace,
  checkFileName,
  exists,
  failedSuffix,
  partSuffix,
  readyView,
  refuseWhileBusy,
  stillWriting,
  taskSuffix,
} from "./backup-rules.ts";
import { failureReason } from "./failure-reason.ts";
import { restorePaths, restorePlaces } from "./partial-restore.ts";
import { aroundHooks, hasHooks } from "./running-backup.ts";
import { S3Backups, targetUnreachable } from "./s3-target.ts";

/**
 * Backups of this node's servers: `<backups>/<serverId>/<uuid>.tar.gz`. A
 * backup is written as `<name>.part` and renamed when complete; a failure
 * leaves `<name>.failed` holding the reason. So the folder itself says what
 * is finished and what failed, across restarts; only the progress of the
 * backups being written lives in memory. LocalNode calls this in-process and
 * the daemon's routes call the same, so both kinds of node keep one set of
 * rules.
 *
 * With an S3 target (kept in `targetFile`, 0600, so tasks use it while the
 * panel is down) new backups stream to the bucket instead: nothing of them
 * is on the node's disk but the `.failed`, `.task` and `.facts` notes. Backups made
 * on the disk before stay there and are still listed, read and deleted. A backup adopted
 * from another panel's bucket (`adopt`) is an `.object` note naming its key there.
 */
export class BackupOps implements NodeBackups {
  /** Backups being written, by `serverId/fileName`. */
  private readonly writing = new Map<string, BackupProgress>();
  /** The backup each server is being restored from. */
  private readonly restoring = new Map<string, string>();

  /** Where new backups go when set; undefined: the node's own disk. */
  private s3?: S3Backups;
  /** Pins and the policy: what is kept. */
  private readonly keeping = new BackupKeeping(this, (serverId) => this.folder(serverId));

  constructor(
    readonly store: ServerStore,
    readonly backupsDir: string,
    /** Where the target is kept (0600: it holds the secret key). */
    private readonly targetFile: string,
  ) {
    if (fsSync.existsSync(targetFile)) {
      this.s3 = new S3Backups(JSON.parse(fsSync.readFileSync(targetFile, "utf8")) as S3BackupTarget);
    }
    store.afterDelete.push((id) => this.removeAll(id));
    // A server's backups count toward its disk limit.
    store.diskFolders.push((id) => this.folder(id));
  }

  private folder(serverId: string): string {
    return path.join(this.backupsDir, serverId);
  }

  async setTarget(target: S3BackupTarget | null): Promise<void> {
    const next = target ? new S3Backups(target) : undefined;
    // A target the node cannot use is refused, not kept to fail every backup later.
    await next?.check();
    if (target) {
      const temporary = `${this.targetFile}.new`;
      await fs.writeFile(temporary, JSON.stringify(target), { mode: privateFileMode });
      await fs.rename(temporary, this.targetFile);
    } else {
      await fs.rm(this.targetFile, { force: true });
    }
    // A backup under way keeps the target it started with.
    this.s3 = next;
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
    refuseWhileBusy(server.instance);
    const s3 = this.s3;
    // An unreachable target refuses the backup before anything is written or recorded.
    await s3?.check();
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
    // A backup in object storage takes nothing of the server's disk.
    const budget = s3 ? undefined : await server.disk.budget();
    let kept = false;
    // From here on nothing waits until the server is marked busy, so two
    // creates at once cannot both pass the check.
    try {
      refuseWhileBusy(server.instance);
    } catch (error) {
      budget?.end(false);
      throw error;
    }
    const progress: BackupProgress = { read: 0, written: 0, digest: createHash("sha256") };
    this.writing.set(key, progress);
    const { instance } = server;
    const hooks = server.definition.backup;
    const running = instance.status().running;
    const hooked = running && hasHooks(hooks);
    instance.notice("backingUp");
    const facts = (): BackupFacts => ({
      sha256: progress.digest?.digest("hex") ?? "",
      size: progress.written,
      whileRunning: running && !hooked,
      leftOut: exclusions?.leftOut ?? 0,
      pinned: false,
      finishedAt: Date.now(),
    });
    let exclusions: Exclusions | undefined;
    const archive = async () => {
      const skipped = (place: string, why: string) =>
        instance.notice("backupLeftOut", { place, reason: why });
      exclusions = await backupExclusions(server.sandbox, hooks?.exclude);
      if (s3) {
        await s3.upload(serverId, name, backupArchiveStream(server.sandbox, progress, skipped, exclusions));
        await writeFacts(target, facts());
        return;
      }
      const part = target + partSuffix;
      try {
        await writeBackupArchive(server.sandbox, part, progress, skipped, {
          limit: budget?.limiter(),
          exclusions,
        });
        // The facts first: a backup is never listed without them.
        await writeFacts(target, facts());
        await fs.rename(part, target);
        kept = true;
      } catch (error) {
        await fs.rm(part, { force: true });
        await fs.rm(target + factsSuffix, { force: true });
        throw error;
      } finally {
        budget?.end(kept);
      }
    };
    const work = instance.whileBusy(
      "backup",
      () => (hooked && hooks ? aroundHooks(instance, hooks, archive) : archive()),
      { running: true },
    );
    const done = work
      .then(
        () => instance.notice("backupDone"),
        async (error: unknown) => {
          const reason = failureReason(error, {
            [server.root]: "the server folder",
            [this.folder(serverId)]: "the backups folder",
          });
          instance.notice("backupFailed", { reason });
          await fs.writeFile(target + failedSuffix, reason).catch(() => {});
          // A task's failed backup is in the task's run; the panel lists only those that exist.
          await fs.rm(target + taskSuffix, { force: true });
          server.announce("backupFailed");
          throw new ApiError(
            500,
            "ErrBackupFailed",
            "backup failed: ${reason}",
            { reason },
            { cause: error },
          );
        },
      )
      // Only once the outcome is on disk, so a status answer never finds neither.
      .finally(() => this.writing.delete(key))
      // Whoever made it (a user, the API, a task), the policy is applied here, on the node, once it is listed as ready.
      .then(() =>
        this.keeping.prune(serverId).then(
          () => {},
          () => {},
        ),
      );
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
    return listBackups(serverId, this.folder(serverId), this.s3, active, (fileName) =>
      this.writing.has(`${serverId}/${fileName}`),
    );
  }

  async restore(serverId: string, fileName: string, paths?: string[]): Promise<void> {
    const name = checkFileName(fileName);
    // Checked before anything stops: a place that leaves the root is refused as it is.
    const places = paths ? restorePlaces(paths) : [];
    const server = this.store.get(serverId);
    refuseWhileBusy(server.instance);
    const source = await this.source(serverId, name);
    refuseWhileBusy(server.instance);
    const { instance } = server;
    // The reference refuses a running server; here it is stopped first (the UI's confirmation says so).
    if (instance.status().running) await instance.stop(true);
    refuseWhileBusy(instance);
    this.restoring.set(serverId, name);
    try {
      await instance.whileBusy("restore", async () => {
        instance.notice("restoring");
        try {
          const archive = typeof source === "string" ? source : async () => (await source()).body;
          if (places.length > 0) await restorePaths(server.root, archive, places);
          else await restoreBackup(server.root, archive);
        } finally {
          server.disk.forget();
        }
      });
      instance.notice("restored");
    } catch (error) {
      instance.notice("restoreFailed", {
        reason: String((error as ApiError).metadata?.reason ?? (error as Error).message),
      });
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
    // The object first (a target that cannot be reached keeps the backup whole); a backup on
    // the disk, made before the target was set, has none.
    if (!(await exists(target))) {
      const adopted = await readAdopted(target);
      await (adopted ? this.s3?.deleteKey(adopted.key) : this.s3?.delete(serverId, name));
    }
    await fs.rm(target + objectSuffix, { force: true });
    await fs.rm(target, { force: true });
    await fs.rm(target + failedSuffix, { force: true });
    await fs.rm(target + taskSuffix, { force: true });
    await fs.rm(target + factsSuffix, { force: true });
    // Backups count toward the disk limit: the room they leave is seen at once.
    this.store.get(serverId).disk.forget();
  }

  async download(serverId: string, fileName: string): Promise<BackupBytes> {
    const name = checkFileName(fileName);
    this.store.get(serverId);
    if (this.writing.has(`${serverId}/${name}`)) throw stillWriting();
    const source = await this.source(serverId, name);
    if (typeof source !== "string") return source();
    const handle = await fs.open(source, "r").catch((error) => {
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

  async verify(serverId: string, fileName: string): Promise<BackupVerdict> {
    const name = checkFileName(fileName);
    this.store.get(serverId);
    if (this.writing.has(`${serverId}/${name}`)) throw stillWriting();
    const source = await this.source(serverId, name);
    const file = path.join(this.folder(serverId), name);
    const facts = await readFacts(file);
    const adopted = await readAdopted(file);
    const { read, ...verdict } = await verifyBackup(
      async () =>
        typeof source === "string"
          ? fsSync.createReadStream(source, { highWaterMark: 256 * 1024 })
          : (await source()).body,
      facts,
      adopted?.sha1,
    );
    // One that had no SHA-256 of ours (adopted, or from before they were kept) has it from now on.
    if (verdict.ok && read && facts && !facts.sha256)
      await writeFacts(file, { ...facts, sha256: read.sha256, size: read.size });
    return verdict;
  }

  async objectSize(key: string): Promise<number | null> {
    return (await this.bucket().size(key)) ?? null;
  }

  /** See NodeBackups.adopt: the facts are what the other panel knew; the bytes stay in the bucket. */
  async adopt(serverId: string, fileName: string, adoption: BackupAdoption): Promise<NodeBackupView> {
    const name = checkFileName(fileName);
    this.store.get(serverId);
    const s3 = this.bucket();
    const target = path.join(this.folder(serverId), name);
    const before = await readAdopted(target);
    if (
      this.writing.has(`${serverId}/${name}`) ||
      (await exists(target)) ||
      (before ? before.key !== adoption.key : await exists(target + factsSuffix))
    ) {
      throw new ApiError(409, "ErrFileExists", "backup ${fileName} already exists", { fileName: name });
    }
    await fs.mkdir(this.folder(serverId), { recursive: true });
    return adoptObject(s3, target, adoption, before !== undefined);
  }

  /** See NodeBackups.receive: always onto this node's disk, even with a bucket (as one made before it). */
  async receive(
    serverId: string,
    fileName: string,
    body: Readable,
    receipt: BackupReceipt,
  ): Promise<NodeBackupView> {
    const name = checkFileName(fileName);
    const server = this.store.get(serverId);
    const target = path.join(this.folder(serverId), name);
    const key = `${serverId}/${name}`;
    if (await exists(target)) {
      body.resume();
      const facts = await readFacts(target);
      const { size } = await fs.stat(target);
      return readyView(name, size, facts);
    }
    if (this.writing.has(key) || (await readAdopted(target))) {
      body.resume();
      throw new ApiError(409, "ErrFileExists", "backup ${fileName} already exists", { fileName: name });
    }
    await fs.mkdir(this.folder(serverId), { recursive: true });
    const progress: BackupProgress = { read: 0, written: 0 };
    this.writing.set(key, progress);
    try {
      return await receiveBackup(server.disk, target, body, receipt, progress);
    } finally {
      this.writing.delete(key);
      server.disk.forget();
    }
  }

  private bucket(): S3Backups {
    if (!this.s3) throw targetUnreachable("this node keeps its backups on its own disk; it has no bucket");
    return this.s3;
  }

  async files(serverId: string, fileName: string, folder: string): Promise<BackupEntryList> {
    const name = checkFileName(fileName);
    this.store.get(serverId);
    if (this.writing.has(`${serverId}/${name}`)) throw stillWriting();
    const source = await this.source(serverId, name);
    const stream =
      typeof source === "string"
        ? fsSync.createReadStream(source, { highWaterMark: 256 * 1024 })
        : (await source()).body;
    try {
      return await listBackupFolder(stream, backupPlace(folder));
    } finally {
      stream.destroy();
    }
  }

  pin(serverId: string, fileName: string, pinned: boolean): Promise<void> {
    return this.keeping.pin(serverId, checkFileName(fileName), pinned);
  }

  policy(serverId: string): Promise<BackupPolicy> {
    this.store.get(serverId);
    return this.keeping.policy(serverId);
  }

  setPolicy(serverId: string, policy: BackupPolicy): Promise<string[]> {
    this.store.get(serverId);
    return this.keeping.setPolicy(serverId, policy);
  }

  /**
   * Where a finished backup is read from: its file on the node's disk (made
   * there, before a target was set or without one), else the bucket.
   */
  private async source(serverId: string, name: string): Promise<string | (() => Promise<BackupBytes>)> {
    const local = path.join(this.folder(serverId), name);
    const s3 = this.s3;
    if (await exists(local)) return local;
    if (!s3) throw backupMissing();
    const key = (await readAdopted(local))?.key ?? s3.key(serverId, name);
    return () => s3.openKey(key);
  }

  /** A deleted server's backups go with it. */
  private async removeAll(serverId: string): Promise<void> {
    const folder = this.folder(serverId);
    if (this.s3) await deleteAdoptedObjects(folder, this.s3);
    await fs.rm(folder, { recursive: true, force: true });
    // Best effort: an unreachable bucket keeps them (the operator's to remove).
    await this.s3?.deleteAll(serverId).catch(() => {});
  }
}
