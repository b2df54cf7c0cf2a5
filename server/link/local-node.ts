import type { NodeBackups } from "../contract/node/backup-wire.ts";
import type { NodeFiles } from "../contract/node/file-wire.ts";
import type { NodeHistory } from "../contract/node/history-wire.ts";
import type { NodeLive } from "../contract/node/live-wire.ts";
import type { NodeMods } from "../contract/node/mod-wire.ts";
import type { NodeEngine } from "../contract/node/node-engine.ts";
import type { NodeEvents } from "../contract/node/node-events.ts";
import type { NodeQuery } from "../contract/node/query-wire.ts";
import type { NodeRcon } from "../contract/node/rcon-wire.ts";
import type { NodeServers } from "../contract/node/server-wire.ts";
import type { NodeSftp } from "../contract/node/sftp-wire.ts";
import type { NodeTasks } from "../contract/node/task-wire.ts";
import type { NodeTransfers, TransferSource } from "../contract/node/transfer-wire.ts";
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
  readonly rcon: NodeRcon;
  readonly mods: NodeMods;
  readonly tasks: NodeTasks;
  readonly history: NodeHistory;
  readonly transfers: NodeTransfers;
  readonly exports: TransferSource;
  /** Empty in practice: the local node's SFTP sessions are the panel's live connections. */
  readonly sftp: NodeSftp;
  readonly events: NodeEvents;
  readonly live: NodeLive;

  constructor(private readonly engine: NodeEngine) {
    this.servers = engine.serverOps;
    this.files = engine.fileOps;
    this.backups = engine.backupOps;
    this.query = engine.queryOps;
    this.rcon = engine.rconOps;
    this.mods = engine.modOps;
    this.tasks = engine.taskOps;
    this.history = engine.historyOps;
    this.transfers = engine.transferOps;
    this.exports = engine.transferOps;
    this.sftp = engine.sftpSessions;
    this.events = engine.events;
    this.live = engine.live;
  }

  async health(): Promise<void> {}

  features(): Promise<NodeFeatures> {
    return this.engine.features();
  }
}
