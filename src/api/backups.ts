import type { BackupView } from "../../server/contract/api/backups";
import type { BackupEntryList, BackupPolicy, BackupVerdict } from "../../server/contract/node/backup-wire";
import { type CallOptions, del, get, post, put } from "./client";

// Backups of a server (spec §7, reference §12.19). Types come from the server's wire definitions.

export type Backup = BackupView;

const base = (id: string) => `/api/servers/${encodeURIComponent(id)}/backup`;

/** Newest first; `state` says whether each is being written (with `bytesWritten`), ready or failed. */
export const listBackups = (id: string, opts?: CallOptions) => get<Backup[]>(base(id), opts);

/** Starts a backup (of a running server too, around its template's hooks). It shows in the list at once, as `creating`. */
export const createBackup = (id: string, name: string, opts?: CallOptions) =>
  post<void>(`${base(id)}/create`, undefined, { ...opts, query: { name } });

/**
 * Replaces the server's files with the backup's (a running server is stopped first); answers once
 * they are in place. With `paths`, only those files or folders (root-relative) are put back.
 */
export const restoreBackup = (id: string, backupId: number, paths?: string[], opts?: CallOptions) =>
  post<void>(`${base(id)}/restore/${backupId}`, paths ? { paths } : undefined, opts);

export type BackupFileEntry = BackupEntryList[number];

/** One folder's children inside a backup ("" the root), read from the archive on its node. */
export const listBackupFiles = (id: string, backupId: number, path: string, opts?: CallOptions) =>
  get<BackupFileEntry[]>(`${base(id)}/${backupId}/files`, { ...opts, query: { path } });

export const deleteBackup = (id: string, backupId: number, opts?: CallOptions) =>
  del<void>(`${base(id)}/${backupId}`, opts);

/** Where the browser downloads a finished backup (the session cookie goes with a plain link). */
export const backupDownloadUrl = (id: string, backupId: number) => `${base(id)}/download/${backupId}`;

/** Reads the backup through on its node: size, SHA-256, archive. */
export const verifyBackup = (id: string, backupId: number, opts?: CallOptions) =>
  post<BackupVerdict>(`${base(id)}/${backupId}/verify`, undefined, opts);

/** A pinned backup is never removed by the policy. */
export const pinBackup = (id: string, backupId: number, pinned: boolean, opts?: CallOptions) =>
  put<Backup>(`${base(id)}/${backupId}`, { pinned }, opts);

export type { BackupPolicy };

export const getBackupPolicy = (id: string, opts?: CallOptions) =>
  get<BackupPolicy>(`${base(id)}-policy`, opts);

/** Kept and applied at once on the node: backups it does not keep are removed. */
export const saveBackupPolicy = (id: string, policy: BackupPolicy, opts?: CallOptions) =>
  put<BackupPolicy>(`${base(id)}-policy`, policy, opts);
