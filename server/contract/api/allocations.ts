import { type Static, Type } from "typebox";
import { serverIdPattern } from "../constants.ts";

/**
 * Port allocations (issue 36): a node's pool of ip:port pairs, each held by at most one server.
 * A server holds one for each port variable of its template (the primary is its `ip`/`port`)
 * and, within its allocationLimit, extra ones.
 */

/** Most ports one POST may add. */
export const allocationsPerRequestMax = 10_000;

const id = () => Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const NodeAllocation = Type.Object({
  id: Type.Integer(),
  ip: Type.String(),
  port: Type.Integer(),
  alias: Type.Optional(Type.String()),
  /** The server holding it; null while free. */
  serverId: Type.Union([Type.String(), Type.Null()]),
});
export type NodeAllocation = Static<typeof NodeAllocation>;
export const NodeAllocationList = Type.Array(NodeAllocation);

/** POST /api/nodes/{id}/allocations: `ports` is "25565", "25565-25600" or "25565,25570-25580". */
export const NodeAllocationBody = Type.Object(
  {
    ip: Type.String({ minLength: 1, maxLength: 64 }),
    ports: Type.String({ minLength: 1, maxLength: 2000 }),
    alias: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);
export type NodeAllocationBody = Static<typeof NodeAllocationBody>;

export const NodeAllocationParams = Type.Object({
  id: Type.Integer({ minimum: 0 }),
  allocationId: id(),
});

/** One of a server's allocations. `variable`: the template variable its port goes into. */
export const ServerAllocation = Type.Object({
  id: Type.Integer(),
  ip: Type.String(),
  port: Type.Integer(),
  alias: Type.Optional(Type.String()),
  primary: Type.Boolean(),
  variable: Type.Optional(Type.String()),
});
export type ServerAllocation = Static<typeof ServerAllocation>;

export const ServerAllocations = Type.Object({
  allocations: Type.Array(ServerAllocation),
  /** How many beyond those its template's ports take the server may hold (GET …/limits). */
  allocationLimit: Type.Integer(),
  /** Whether its node has a pool at all (without one, ports are the template's values). */
  pooled: Type.Boolean(),
});
export type ServerAllocations = Static<typeof ServerAllocations>;

export const ServerAllocationParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, pattern: serverIdPattern.source }),
  allocationId: id(),
});

/** GET /api/nodes/{id}/allocations/free: the first free ones, for the create wizard's choice. */
export const FreeAllocationQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
});
export const FreeAllocationList = Type.Array(
  Type.Object({
    id: Type.Integer(),
    ip: Type.String(),
    port: Type.Integer(),
    alias: Type.Optional(Type.String()),
  }),
);
export type FreeAllocationList = Static<typeof FreeAllocationList>;
