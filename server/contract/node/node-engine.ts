import type { NodeBackups } from "./backup-wire.ts";
import type { NodeFeatures } from "./features.ts";
import type { NodeFiles } from "./file-wire.ts";
import type { NodeHistory } from "./history-wire.ts";
import type { NodeLive } from "./live-wire.ts";
import type { NodeMods } from "./mod-wire.ts";
import type { NodeEvents } from "./node-events.ts";
import type { NodeQuery } from "./query-wire.ts";
import type { NodeRcon } from "./rcon-wire.ts";
import type { NodeServers } from "./server-wire.ts";
import type { NodeSftp } from "./sftp-wire.ts";
import type { NodeTasks } from "./task-wire.ts";
import type { NodeTransfers, TransferSource } from "./transfer-wire.ts";

/**
 * What the panel's in-process node offers LocalNode: the daemon engine has this
 * shape, and the composition root hands one over, so the link never imports
 * the daemon (DESIGN.md's wall).
 */
export interface NodeEngine {
  readonly serverOps: NodeServers;
  readonly fileOps: NodeFiles;
  readonly backupOps: NodeBackups;
  readonly queryOps: NodeQuery;
  readonly rconOps: NodeRcon;
  readonly modOps: NodeMods;
  readonly taskOps: NodeTasks;
  readonly historyOps: NodeHistory;
  readonly transferOps: NodeTransfers & TransferSource;
  readonly sftpSessions: NodeSftp;
  readonly events: NodeEvents;
  readonly live: NodeLive;
  features(): Promise<NodeFeatures>;
}
