import type { NodeBackups } from "../contract/node/backup-wire.ts";
import type { NodeFeatures } from "../contract/node/features.ts";
import type { NodeFiles } from "../contract/node/file-wire.ts";
import type { NodeHistory } from "../contract/node/history-wire.ts";
import type { NodeLive } from "../contract/node/live-wire.ts";
import type { NodeMods } from "../contract/node/mod-wire.ts";
import type { NodeEvents } from "../contract/node/node-events.ts";
import type { NodeQuery } from "../contract/node/query-wire.ts";
import type { NodeRcon } from "../contract/node/rcon-wire.ts";
import type { NodeServers } from "../contract/node/server-wire.ts";
import type { NodeSftp } from "../contract/node/sftp-wire.ts";
import type { NodeTasks } from "../contract/node/task-wire.ts";
import type { NodeTransfers, TransferSource } from "../contract/node/transfer-wire.ts";

export type { NodeFeatures };

/**
 * Everything the panel asks of a node. `LocalNode` answers in-process,
 * `RemoteNode` over the daemon's HTTP + WebSocket API; nothing above this
 * seam knows which one it holds.
 */
export interface NodeClient {
  readonly nodeId: number;
  /** Resolves when the node answers; throws ErrNodeUnreachable when it does not. */
  health(): Promise<void>;
  features(): Promise<NodeFeatures>;
  /** Whether the last contact with the node worked. */
  readonly reachable: boolean;
  /**
   * How many times the node answered after not answering, its first answer
   * included: it grows when any call (not only a health check) finds it back.
   */
  readonly comebacks: number;
  readonly servers: NodeServers;
  readonly files: NodeFiles;
  readonly backups: NodeBackups;
  readonly query: NodeQuery;
  /** Commands sent over Source RCON to a game server on the node (player actions, issue 37). */
  readonly rcon: NodeRcon;
  /** A server's mods and plugins: fetched, checked and placed by the node. */
  readonly mods: NodeMods;
  readonly sftp: NodeSftp;
  readonly tasks: NodeTasks;
  /** Past resource use of the node and its servers. */
  readonly history: NodeHistory;
  /** What the node tells of its own accord (its own changes, for the activity log). */
  readonly events: NodeEvents;
  /** Live status, stats and limits of the servers watched there: one stream per node, whatever their number. */
  readonly live: NodeLive;
  readonly transfers: NodeTransfers;
  /** The local node only: the export another node fetches, served by the panel's HTTP server. */
  readonly exports?: TransferSource;
}
