import type { NodeHistoryAnswer } from "../contract/api/stats-history.ts";
import type { HistoryRange, HistoryView } from "../contract/node/history-wire.ts";
import type { Db } from "../db/database.ts";
import type { Nodes } from "./nodes.ts";
import type { Servers } from "./servers.ts";

/** The API's shape (server/contract/api/stats-history.ts), named here for the client's imports. */
export type { NodeHistoryAnswer };

/**
 * Resource history (issue 24): kept by each node, so a remote node's history
 * goes on while the panel is down; the panel only asks and names.
 */
export class StatsHistory {
  constructor(
    private readonly db: Db,
    private readonly servers: Servers,
    private readonly nodes: Nodes,
  ) {}

  async server(id: string, range: HistoryRange): Promise<HistoryView> {
    return (await this.servers.nodeOf(id)).history.serverHistory(id, range);
  }

  /** The node's history with its servers' beside it, named as the panel knows them, by name. */
  async node(nodeId: number, range: HistoryRange): Promise<NodeHistoryAnswer> {
    const { servers, ...own } = await (await this.nodes.client(nodeId)).history.nodeHistory(range);
    const rows = await this.db
      .selectFrom("servers")
      .select(["id", "name"])
      .where("node_id", "=", nodeId)
      .orderBy("name")
      .execute();
    // Only servers the panel has on this node: a node's own leftovers are not shown.
    return {
      ...own,
      servers: rows
        .filter((row) => servers[row.id])
        .map((row) => ({ id: row.id, name: row.name, ...servers[row.id] })),
    };
  }
}
