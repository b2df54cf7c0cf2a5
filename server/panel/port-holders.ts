import type { Selectable } from "kysely";
import type { Db } from "../db/database.ts";
import type { AllocationTable } from "../db/tables.ts";
import { ApiError } from "../errors.ts";
import type { Permissions } from "./permissions.ts";
import type { Principal } from "./principal.ts";
import { holdsScope } from "./scopes.ts";

export type AllocationRow = Selectable<AllocationTable>;

/** Whether a node has a pool at all: without one, servers there keep their template's ports. */
export async function pooled(db: Db, nodeId: number): Promise<boolean> {
  const row = await db
    .selectFrom("allocations")
    .select("id")
    .where("node_id", "=", nodeId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The other server of the node that uses this port (holds an allocation of it, or has it as its
 * recorded port), if any.
 */
export async function portHolder(
  db: Db,
  nodeId: number,
  port: number,
  except: string,
): Promise<string | undefined> {
  const held = await db
    .selectFrom("allocations")
    .select("server_id")
    .where("node_id", "=", nodeId)
    .where("port", "=", port)
    .where("server_id", "is not", null)
    .where("server_id", "!=", except)
    .limit(1)
    .executeTakeFirst();
  if (held?.server_id) return held.server_id;
  const recorded = await db
    .selectFrom("servers")
    .select("id")
    .where("node_id", "=", nodeId)
    .where("port", "=", port)
    .where("id", "!=", except)
    .limit(1)
    .executeTakeFirst();
  return recorded?.id;
}

/**
 * 409 ErrPortTaken. The holder is named (id and name) only to a caller who may see it: an
 * administrator or a holder of server.view there; anyone else learns only that the port is taken.
 */
export async function portTaken(
  db: Db,
  permissions: Permissions,
  principal: Principal | undefined,
  port: number,
  holder: string,
): Promise<ApiError> {
  let named = !principal || holdsScope(principal.scopes, "admin");
  if (!named && principal && principal.onlyServer === undefined) {
    const scopes = await permissions.serverScopes(principal.user.id, holder);
    named = holdsScope(scopes ?? [], "server.view");
  }
  if (!named)
    return new ApiError(409, "ErrPortTaken", "port ${port} is used by another server of this node", {
      port,
      named: "no",
    });
  const row = await db.selectFrom("servers").select("name").where("id", "=", holder).executeTakeFirst();
  return new ApiError(409, "ErrPortTaken", "port ${port} is used by server ${server} (${name})", {
    port,
    named: "yes",
    server: holder,
    name: row?.name ?? holder,
  });
}

export const noFreeAllocation = () =>
  new ApiError(409, "ErrNoFreeAllocation", "this node has no free allocation left");

export const portNotInPool = (port: number) =>
  new ApiError(400, "ErrPortNotInPool", "port ${port} is not one of this node's allocations", { port });

/** Takes a free allocation for a server; false when another took it first. */
export async function claimAllocation(
  db: Db,
  allocationId: number,
  serverId: string,
  variable: string | null,
  primary: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable("allocations")
    .set({ server_id: serverId, variable, is_primary: primary ? 1 : 0 })
    .where("id", "=", allocationId)
    .where("server_id", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives back every allocation a server holds. */
export async function releaseAllocations(db: Db, serverId: string): Promise<void> {
  await db
    .updateTable("allocations")
    .set({ server_id: null, variable: null, is_primary: 0 })
    .where("server_id", "=", serverId)
    .execute();
}

/** A server's allocations, the primary first, then those of its variables, then extras by port. */
export async function allocationsOf(db: Db, serverId: string): Promise<AllocationRow[]> {
  const rows = await db.selectFrom("allocations").selectAll().where("server_id", "=", serverId).execute();
  const rank = (row: AllocationRow) => (row.is_primary ? 0 : row.variable ? 1 : 2);
  return rows.sort((a, b) => rank(a) - rank(b) || a.port - b.port || a.id - b.id);
}
