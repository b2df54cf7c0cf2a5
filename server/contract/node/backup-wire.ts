import type { Readable } from "node:stream";
import { type Static, Type } from "typebox";

/**
 * Shapes that cross the panel↔node seam for backups (reference §12.19).
 * The node owns the files (`<backups>/<serverId>/<fileName>`) and knows
 * whether each is being written, finished or failed; the panel owns the list
 * of ids and names. The panel picks the file name, so it can record the row
 * under the name the node will use.
 */
export const BackupState = Type.Union([
  Type.Literal("creating"),
  Type.Literal("ready"),
  Type.Literal("failed"),
]);
export type BackupState = Static<typeof BackupState>;

/** What a node knows of one backup file of a server. */
export const NodeBackupView = Type.Object({
  fileName: Type.String(),
  state: BackupState,
  /** The finished archive's bytes; while creating, the bytes written so far. */
  size: Type.Number(),
  /** Why it failed. */
  error: Type.Optional(Type.String()),
  /** The name of the task that made it: the panel lists such backups, which it did not ask for. */
  task: Type.Optional(Type.String()),
  /** When it was finished (ms since the epoch), for a task's backup. */
  createdAt: Type.Optional(Type.Number()),
  /** What the node learnt while writing it (a backup from before they were kept has none). */
  sha256: Type.Optional(Type.String()),
  /** Taken while the server ran, without the template's hooks. */
  whileRunning: Type.Optional(Type.Boolean()),
  /** Files the exclusions left out. */
  leftOut: Type.Optional(Type.Integer()),
  /** Never pruned by the backup policy. */
  pinned: Type.Optional(Type.Boolean()),
});
export type NodeBackupView = Static<typeof NodeBackupView>;
export const NodeBackupList = Type.Array(NodeBackupView);

/** A backup checked against what was recorded when it was written (POST …/verify). */
export const BackupVerdict = Type.Object({
  ok: Type.Boolean(),
  /** Why it failed (size, SHA-256, or the archive cannot be read). */
  reason: Type.Optional(Type.String()),
});
export type BackupVerdict = Static<typeof BackupVerdict>;

const keepCount = Type.Integer({ minimum: 0, maximum: 10_000 });

/**
 * A server's backup policy (GET/PUT …/backup-policy): keep the newest
 * `keepLast`, one a day for `keepDaily` days, a week for `keepWeekly` weeks,
 * a month for `keepMonthly` months, at most `maxTotalBytes` in all (0: no
 * bound); all zeros keep everything. Pinned backups are never pruned.
 */
export const BackupPolicy = Type.Object({
  keepLast: keepCount,
  keepDaily: keepCount,
  keepWeekly: keepCount,
  keepMonthly: keepCount,
  maxTotalBytes: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
});
export type BackupPolicy = Static<typeof BackupPolicy>;

/** A folder's children inside a backup (GET …/files?path=), read from the archive as it streams. */
export const BackupEntryList = Type.Array(
  Type.Object({
    name: Type.String(),
    type: Type.Union([Type.Literal("file"), Type.Literal("directory"), Type.Literal("symlink")]),
    size: Type.Integer(),
  }),
);
export type BackupEntryList = Static<typeof BackupEntryList>;

/** `?fileName=&path=`: a folder inside a backup, root-relative ("" the root), without `..`. */
export const BackupFolderQuery = Type.Object({
  fileName: Type.String({ minLength: 1, maxLength: 100 }),
  path: Type.Optional(Type.String({ maxLength: 4096 })),
});

/** What applying a policy removed: file names. */
export const PrunedList = Type.Array(Type.String());

/**
 * POST …/restore: `{"paths": [...]}` restores only those files or folders of
 * the backup (root-relative, never `..`); without it, the whole backup.
 */
export const BackupRestoreBody = Type.Object({
  paths: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { minItems: 1, maxItems: 256 })),
});

/** PUT …/backup/pin?fileName=: pinned backups are never pruned. */
export const BackupPinBody = Type.Object({ pinned: Type.Boolean() });

/** `?fileName=`: the backup a call is about (the node checks it against backupFileNamePattern). */
export const BackupFileQuery = Type.Object({ fileName: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * PUT …/backup/adopt?fileName=: an object another panel's Wings left in the node's bucket,
 * recorded as this server's backup `fileName` where it is (never copied). Its key is whole, not
 * under the target's prefix (Wings writes `<server uuid>/<backup uuid>.tar.gz`).
 */
export const BackupAdoption = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 1024, pattern: "^[^/\\u0000-\\u001f][^\\u0000-\\u001f]*$" }),
  pinned: Type.Boolean(),
  /** When the other panel made it (ms since the epoch): the policy's clock. */
  createdAt: Type.Integer({ minimum: 0 }),
  /** The SHA-1 that panel recorded (hex): the first verification checks the bytes against it. */
  sha1: Type.Optional(Type.String({ pattern: "^[0-9a-f]{40}$" })),
});
export type BackupAdoption = Static<typeof BackupAdoption>;

/** What is known of a backup received from another panel (PUT …/backup/receive), as of an adopted one. */
export type BackupReceipt = Omit<BackupAdoption, "key">;

/**
 * PUT …/backup/receive?fileName=&createdAt=&pinned=&sha1=: a backup Wings kept on its own
 * disk, its bytes the body, kept on this node's disk once its SHA-1 (when given) matches and it
 * reads through as a gzip tar.
 */
export const BackupReceiptQuery = Type.Object({
  fileName: Type.String({ minLength: 1, maxLength: 100 }),
  createdAt: Type.String({ pattern: "^[0-9]{1,15}$" }),
  pinned: Type.Union([Type.Literal("true"), Type.Literal("false")]),
  sha1: Type.Optional(BackupAdoption.properties.sha1),
});

/** GET /daemon/backup-object?key=: whether the node's bucket has an object (its size, or null). */
export const BackupObjectQuery = Type.Object({ key: BackupAdoption.properties.key });
export const BackupObjectAnswer = Type.Object({
  size: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});

/** A finished backup being read: the caller consumes or destroys the stream. */
export interface BackupBytes {
  size: number;
  body: Readable;
}

/** `<uuid>.tar.gz`: the only names a node accepts, so no name can point elsewhere. */
export const backupFileNamePattern =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tar\.gz$/;

/**
 * S3-compatible object storage a node streams its backups to instead of its
 * own disk (objects `<prefix><serverId>/<fileName>`). The panel holds it (the
 * secret sealed) and hands it to the node, which keeps it so that its tasks
 * back up there while the panel is down.
 */
export const S3BackupTarget = Type.Object({
  type: Type.Literal("s3"),
  endpoint: Type.String({ minLength: 1, maxLength: 500 }),
  region: Type.String({ minLength: 1, maxLength: 64 }),
  bucket: Type.String({ minLength: 1, maxLength: 63 }),
  prefix: Type.String({ maxLength: 200 }),
  accessKeyId: Type.String({ minLength: 1, maxLength: 256 }),
  secretAccessKey: Type.String({ minLength: 1, maxLength: 256 }),
  forcePathStyle: Type.Boolean(),
});
export type S3BackupTarget = Static<typeof S3BackupTarget>;

/** PUT /daemon/backup-target. The panel checked the fields (server/contract/api/nodes.ts); the node holds them to the same bounds. */
export const BackupTargetBody = Type.Object({ target: Type.Union([Type.Null(), S3BackupTarget]) });

/** What the panel asks of a node about a server's backups. */
export interface NodeBackups {
  /**
   * Where new backups go: S3, or the node's own disk (null). An S3 target is
   * tried first (502 ErrBackupTargetUnreachable when the node cannot reach
   * its bucket) and kept only when it answers.
   */
  setTarget(target: S3BackupTarget | null): Promise<void>;
  /**
   * Starts writing a tar.gz of a server's folder in the background (a
   * running one's around its template's hooks); resolves once it is under
   * way. Refused while the server is busy (409 ErrBackupInProgress).
   */
  create(serverId: string, fileName: string): Promise<void>;
  /** Every backup the node holds for the server: being written, finished or failed. */
  list(serverId: string): Promise<NodeBackupView[]>;
  /**
   * Replaces the server's files with the backup's, all or nothing, after
   * stopping it when it runs; resolves when done. Refused like create.
   * With `paths`, only those files or folders of the backup (read as it
   * streams) replace theirs in the server; the rest stays as it is.
   */
  restore(serverId: string, fileName: string, paths?: string[]): Promise<void>;
  /** Removes a backup file (a missing one is not an error); refused while it is being written. */
  delete(serverId: string, fileName: string): Promise<void>;
  /** A finished backup's bytes. */
  download(serverId: string, fileName: string): Promise<BackupBytes>;
  /** Reads a finished backup through: its size, SHA-256 and archive against its facts. */
  verify(serverId: string, fileName: string): Promise<BackupVerdict>;
  /** A folder's children inside a finished backup, read as the archive streams (disk or bucket). */
  files(serverId: string, fileName: string, folder: string): Promise<BackupEntryList>;
  /**
   * The size of an object in the node's bucket by its whole key, or null when there is none
   * (502 ErrBackupTargetUnreachable when the node has no bucket or cannot reach it).
   */
  objectSize(key: string): Promise<number | null>;
  /**
   * Records an object already in the node's bucket as the server's finished backup `fileName`,
   * not copied and not yet verified (404 ErrBackupNotFound when there is no such object; the same
   * adoption again changes nothing). Answers the backup as the list shows it.
   */
  adopt(serverId: string, fileName: string, adoption: BackupAdoption): Promise<NodeBackupView>;
  /**
   * Keeps `body` (another panel's backup, a gzip tar) as the server's finished backup `fileName`
   * on the node's own disk, counted toward the server's disk limit; refused (500 ErrBackupFailed,
   * nothing kept) when it is not the SHA-1 given or does not read through. One already there is
   * answered as it is. Answers the backup as the list shows it.
   */
  receive(
    serverId: string,
    fileName: string,
    body: Readable,
    receipt: BackupReceipt,
  ): Promise<NodeBackupView>;
  /** Pins or unpins a finished backup (a pinned one is never pruned). */
  pin(serverId: string, fileName: string, pinned: boolean): Promise<void>;
  /** The server's backup policy, applied on the node after each backup whoever made it. */
  policy(serverId: string): Promise<BackupPolicy>;
  /** Keeps a new policy and applies it at once; answers the file names it removed. */
  setPolicy(serverId: string, policy: BackupPolicy): Promise<string[]>;
}
