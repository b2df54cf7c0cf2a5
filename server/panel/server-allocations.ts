import type {
  ServerAllocation,
  ServerAllocations as ServerAllocationsView,
} from "../contract/api/allocations.ts";
import type { NodeServers } from "../contract/node/server-wire.ts";
import type { Db } from "../db/database.ts";
import { ApiError } from "../errors.ts";
import { portVariables } from "../templates/index.ts";
import { findFree } from "./node-allocations.ts";
import {
  type AllocationRow,
  allocationsOf,
  claimAllocation,
  noFreeAllocation,
  pooled,
} from "./port-holders.ts";
import { nodeOfServer } from "./server-exists.ts";
import type { ServerLimits } from "./server-limits.ts";

/** What this service needs of Servers: the node's API for the server, and its row kept in step. */
export interface ServerNodeAccess {
  clientOf(id: string): Promise<NodeServers>;
  refreshRecord(id: string): Promise<void>;
}

const view = (row: AllocationRow): ServerAllocation => ({
  id: row.id,
  ip: row.ip,
  port: row.port,
  ...(row.alias ? { alias: row.alias } : {}),
  primary: row.is_primary === 1,
  ...(row.variable ? { variable: row.variable } : {}),
});

const notHeld = () => new ApiError(404, "ErrAllocationNotFound", "this server holds no such allocation");

/**
 * A server's own allocations (issue 36), for holders of server.allocations.view/edit: list them,
 * take a free one of the node (within allocationLimit, counting extras only: those of the
 * template's port variables come with the template), give an extra one back, choose the primary.
 */
export class ServerAllocations {
  constructor(
    private readonly db: Db,
    private readonly limits: ServerLimits,
    private readonly servers: ServerNodeAccess,
  ) {}

  async list(serverId: string): Promise<ServerAllocationsView> {
    const node = await this.nodeOf(serverId);
    const { allocationLimit } = await this.limits.get(serverId);
    const rows = await allocationsOf(this.db, serverId);
    return { allocations: rows.map(view), allocationLimit, pooled: await pooled(this.db, node) };
  }

  /** One more: the node's first free allocation. */
  async add(serverId: string): Promise<ServerAllocation> {
    const node = await this.nodeOf(serverId);
    const { allocationLimit } = await this.limits.get(serverId);
    for (let attempt = 0; attempt < 5; attempt++) {
      const extras = (await allocationsOf(this.db, serverId)).filter(
        (row) => row.variable === null && !row.is_primary,
      );
      if (extras.length >= allocationLimit)
        throw new ApiError(
          409,
          "ErrAllocationLimit",
          "this server may hold at most ${limit} extra allocations",
          { limit: allocationLimit },
        );
      const [free] = await findFree(this.db, node);
      if (!free) throw noFreeAllocation();
      if (await claimAllocation(this.db, free.id, serverId, null, false))
        return view({ ...free, server_id: serverId, variable: null, is_primary: 0 });
    }
    throw noFreeAllocation();
  }

  /** Gives an extra one back; the primary and those of the template's variables stay. */
  async remove(serverId: string, allocationId: number): Promise<void> {
    const row = await this.held(serverId, allocationId);
    if (row.is_primary || row.variable)
      throw new ApiError(
        409,
        "ErrAllocationNotExtra",
        "${ip}:${port} is the server's ${variable}: choose another primary first",
        { ip: row.ip, port: row.port, variable: row.variable ?? "primary" },
      );
    await this.db
      .updateTable("allocations")
      .set({ server_id: null, variable: null, is_primary: 0 })
      .where("id", "=", allocationId)
      .where("server_id", "=", serverId)
      .execute();
  }

  /**
   * Makes one the primary. The template's primary port variable takes its port; the old primary
   * takes the new one's place (its variable, or extra).
   */
  async setPrimary(serverId: string, allocationId: number): Promise<ServerAllocationsView> {
    const chosen = await this.held(serverId, allocationId);
    if (chosen.is_primary) return this.list(serverId);
    const client = await this.servers.clientOf(serverId);
    const rows = await allocationsOf(this.db, serverId);
    const old = rows.find((row) => row.is_primary === 1);
    const primaryVariable =
      old?.variable ?? portVariables((await client.definition(serverId)).data)[0] ?? null;
    const values: Record<string, number> = {};
    if (primaryVariable) values[primaryVariable] = chosen.port;
    if (old && chosen.variable) values[chosen.variable] = old.port;
    if (Object.keys(values).length > 0) await client.setServerData(serverId, values, false);
    await this.db.transaction().execute(async (trx) => {
      if (old)
        await trx
          .updateTable("allocations")
          .set({ is_primary: 0, variable: chosen.variable })
          .where("id", "=", old.id)
          .execute();
      await trx
        .updateTable("allocations")
        .set({ is_primary: 1, variable: primaryVariable })
        .where("id", "=", chosen.id)
        .execute();
    });
    await this.servers.refreshRecord(serverId);
    return this.list(serverId);
  }

  private async held(serverId: string, allocationId: number): Promise<AllocationRow> {
    await this.nodeOf(serverId);
    const row = await this.db
      .selectFrom("allocations")
      .selectAll()
      .where("id", "=", allocationId)
      .where("server_id", "=", serverId)
      .executeTakeFirst();
    if (!row) throw notHeld();
    return row;
  }

  private nodeOf(serverId: string): Promise<number> {
    return nodeOfServer(this.db, serverId);
  }
}
