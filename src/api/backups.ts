import type { BackupView } from "../../server/contract/api/backups";
import { type CallOptions, del, get, post } from "./client";

// Backups of a server (spec §7, reference §12.19). Types come from the server's wire definitions.

export type Backup = BackupView;

const base = (id: string) => `/api/servers/${encodeURIComponent(id)}/backup`;

/** Newest first; `state` says whether each is being written (with `bytesWritten`), ready or failed. */
export const listBackups = (id: string, opts?: CallOptions) => get<Backup[]>(base(id), opts);

/** Starts a backup; the server must be stopped. It shows in the list at once, as `creating`. */
export const createBackup = (id: string, name: string, opts?: CallOptions) =>
  post<void>(`${base(id)}/create`, undefined, { ...opts, query: { name } });

/** Replaces the server's files with the backup's; answers once they are in place. */
export const restoreBackup = (id: string, backupId: number, opts?: CallOptions) =>
  post<void>(`${base(id)}/restore/${backupId}`, undefined, opts);

export const deleteBackup = (id: string, backupId: number, opts?: CallOptions) =>
  del<void>(`${base(id)}/${backupId}`, opts);

/** Where the browser downloads a finished backup (the session cookie goes with a plain link). */
export const backupDownloadUrl = (id: string, backupId: number) => `${base(id)}/download/${backupId}`;
