import type { NodeBackups } from "../../link/backup-wire.ts";
import type { ServerStore } from "../servers/server-store.ts";

/** Backups of this node's servers: tar.gz files in the node's backups folder. */
export class BackupOps implements NodeBackups {
  constructor(
    readonly store: ServerStore,
    readonly backupsDir: string,
  ) {}
}
