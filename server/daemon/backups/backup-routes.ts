import type { FastifyInstance } from "fastify";
import type { BackupOps } from "./backup-ops.ts";

/** The daemon's backup routes under /daemon/server/{id}/backup, spoken by the panel's RemoteBackups. */
export function daemonBackupRoutes(_app: FastifyInstance, _ops: BackupOps): void {}
