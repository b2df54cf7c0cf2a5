import type { NodeBackups } from "../node-wire/backup-wire.ts";
import type { NodeFiles } from "../node-wire/file-wire.ts";
import type { NodeHistory } from "../node-wire/history-wire.ts";
import type { NodeEngine } from "../node-wire/node-engine.ts";
import type { NodeEvents } from "../node-wire/node-events.ts";
import type { NodeQuery } from "../node-wire/query-wire.ts";
import type { NodeServers } from "../node-wire/server-wire.ts";
import type { NodeSftp } from "../node-wire/sftp-wire.ts";
import type { NodeTasks } from "../node-wire/task-wire.ts";
import type { NodeTransfers, TransferSource } from "../node-wire/transfer-wire.ts";
import type { NodeClient, NodeFeatures } from "./node-client.ts";

/** The node inside the panel process: calls go straight to its engine. */
export class LocalNode implements NodeClient {
  readonly nodeId = 0;
  readonly reachable = true;
  /** In-process: it answers from the start and never goes away. */
  readonly comebacks = 1;
  readonly servers: NodeServers;
  readonly files: NodeFiles;
  readonly backups: NodeBackups;
  readonly query: NodeQuery;
  readonly tasks: NodeTasks;
  readonly history: NodeHistory;
  readonly transfers: NodeTransfers;
  readonly exports: TransferSource;
  /** Empty in practice: the local node's SFTP sessions are the panel's live connections. */
  readonly sftp: NodeSftp;
  readonly events: NodeEvents;

  constructor(private readonly engine: NodeEngine) {
    this.servers = engine.serverOps;
    this.files = engine.fileOps;
    this.backups = engine.backupOps;
    this.query = engine.queryOps;
    this.tasks = engine.taskOps;
    this.history = engine.historyOps;
    this.transfers = engine.transferOps;
    this.exports = engine.transferOps;
    this.sftp = engine.sftpSessions;
    this.events = engine.events;
  }

  async health(): Promise<void> {}

  features(): Promise<NodeFeatures> {
    return this.engine.features();
  }
}
