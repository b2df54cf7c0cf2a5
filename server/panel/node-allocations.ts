import net from "node:net";
import type { Selectable } from "kysely";
import {
  allocationsPerRequestMax,
  type FreeAllocationList,
  type NodeAllocation,
  type NodeAllocationBody,
} from "../contract/api/allocations.ts";
import type { Db } from "../db/database.ts";
import type { AllocationTable } from "../db/tables.ts";
import { ApiError } from "../errors.ts";
import type { Nodes } from "./nodes.ts";

const invalidPorts = (ports: string) =>
  new ApiError(400, "ErrPortsInvalid", "${ports} is not a port, a range like 25565-25600 or a list of them", {
    ports,
  });
const tooManyPorts = (count: number) =>
  new ApiError(400, "ErrTooManyPorts", "at most ${max} ports at once (${count} given)", {
    max: allocationsPerRequestMax,
    count,
  });
export const allocationNotFound = () =>
  new ApiError(404, "ErrAllocationNotFound", "no such allocation on this node");

/**
 * "25565", "25565-25600", "25565,25570-25580" as the ports they name, ascending, or a 400.
 * Stops counting past the limit, so a request for 1-65535 costs no more than one for 10,000.
 */
export function parsePorts(spec: string): number[] {
  const ports = new Set<number>();
  for (const part of spec.split(",")) {
    const match = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(part);
    if (!match) throw invalidPorts(spec);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to > 65535 || to < from) throw invalidPorts(spec);
    if (ports.size + (to - from + 1) > allocationsPerRequestMax)
      throw tooManyPorts(ports.size + to - from + 1);
    for (let port = from; port <= to; port++) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

type Row = Selectable<AllocationTable>;

export const allocationView = (row: Row): NodeAllocation => ({
  id: row.id,
  ip: row.ip,
  port: row.port,
  ...(row.alias ? { alias: row.alias } : {}),
  serverId: row.server_id,
});

/** A node's pool of addresses (administrators): add ranges, list who holds what, remove free ones. */
export class NodeAllocations {
  constructor(
    private readonly db: Db,
    private readonly nodes: Nodes,
  ) {}

  async list(nodeId: number): Promise<NodeAllocation[]> {
    await this.nodes.get(nodeId);
    const rows = await this.db
      .selectFrom("allocations")
      .selectAll()
      .where("node_id", "=", nodeId)
      .orderBy("ip")
      .orderBy("port")
      .execute();
    return rows.map(allocationView);
  }

  /** Adds every port of the spec on that ip; refuses them all when one is there already. */
  async add(nodeId: number, body: NodeAllocationBody): Promise<NodeAllocation[]> {
    await this.nodes.get(nodeId);
    const ip = body.ip.trim();
    if (!net.isIP(ip))
      throw new ApiError(400, "ErrFieldIsInvalidIP", "${field} is not a valid IP address", { field: "ip" });
    const ports = parsePorts(body.ports);
    const alias = body.alias?.trim() || null;
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      // Looked up in slices: one IN list of 10,000 is past SQLite's variable limit on older builds.
      for (let start = 0; start < ports.length; start += 500) {
        const slice = ports.slice(start, start + 500);
        const taken = await trx
          .selectFrom("allocations")
          .select("port")
          .where("node_id", "=", nodeId)
          .where("ip", "=", ip)
          .where("port", "in", slice)
          .orderBy("port")
          .limit(1)
          .executeTakeFirst();
        if (taken) throw allocationExists(ip, taken.port);
      }
      for (let start = 0; start < ports.length; start += 500) {
        await trx
          .insertInto("allocations")
          .values(
            ports
              .slice(start, start + 500)
              .map((port) => ({ node_id: nodeId, ip, port, alias, created_at: now, is_primary: 0 })),
          )
          .execute();
      }
    });
    // None of these ports was there before (refused above), so those in the span are the new ones.
    const added = new Set(ports);
    const rows = await this.db
      .selectFrom("allocations")
      .selectAll()
      .where("node_id", "=", nodeId)
      .where("ip", "=", ip)
      .where("port", ">=", ports[0])
      .where("port", "<=", ports[ports.length - 1])
      .orderBy("port")
      .execute();
    return rows.filter((row) => added.has(row.port)).map(allocationView);
  }

  async delete(nodeId: number, allocationId: number): Promise<void> {
    const row = await this.db
      .selectFrom("allocations")
      .selectAll()
      .where("id", "=", allocationId)
      .where("node_id", "=", nodeId)
      .executeTakeFirst();
    if (!row) throw allocationNotFound();
    const removed = await this.db
      .deleteFrom("allocations")
      .where("id", "=", allocationId)
      .where("server_id", "is", null)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) {
      const holder = await this.db
        .selectFrom("allocations")
        .select("server_id")
        .where("id", "=", allocationId)
        .executeTakeFirst();
      throw new ApiError(409, "ErrAllocationInUse", "server ${server} holds ${ip}:${port}", {
        server: holder?.server_id ?? "",
        ip: row.ip,
        port: row.port,
      });
    }
  }

  /** The first free ones (ports no server of the node uses), for the create wizard's choice. */
  async free(nodeId: number, limit = 100): Promise<FreeAllocationList> {
    await this.nodes.get(nodeId);
    const rows = await findFree(this.db, nodeId, { limit });
    return rows.map(({ id, ip, port, alias }) => ({ id, ip, port, ...(alias ? { alias } : {}) }));
  }
}

const allocationExists = (ip: string, port: number) =>
  new ApiError(409, "ErrAllocationExists", "${ip}:${port} is in this node's pool already", { ip, port });

/**
 * Free allocations of a node in port order: held by no server, and on a port no server of the
 * node uses (through another allocation of the same port, or as its recorded port). `port`: only
 * that port; `skip`: ports to pass over. Read in batches of simple index lookups, not as one
 * anti-join: a planner without statistics yet (a pool just added) ran that as 10,000 × 10,000.
 */
export async function findFree(
  db: Db,
  nodeId: number,
  { port, skip, limit = 1 }: { port?: number; skip?: ReadonlySet<number>; limit?: number } = {},
): Promise<Row[]> {
  const found: Row[] = [];
  let after = 0;
  for (;;) {
    let query = db
      .selectFrom("allocations")
      .selectAll()
      .where("node_id", "=", nodeId)
      .where("server_id", "is", null)
      .where("port", ">", after);
    if (port !== undefined) query = query.where("port", "=", port);
    const batch = await query.orderBy("port").orderBy("id").limit(200).execute();
    if (batch.length === 0) return found;
    const ports = [...new Set(batch.map((row) => row.port))];
    const used = new Set<number>(skip);
    for (const row of await db
      .selectFrom("allocations")
      .select("port")
      .where("node_id", "=", nodeId)
      .where("server_id", "is not", null)
      .where("port", "in", ports)
      .execute())
      used.add(row.port);
    for (const row of await db
      .selectFrom("servers")
      .select("port")
      .where("node_id", "=", nodeId)
      .where("port", "in", ports)
      .execute())
      used.add(row.port);
    for (const row of batch) {
      if (used.has(row.port)) continue;
      found.push(row);
      // One allocation per port: the same port on another ip is as taken once this one is.
      used.add(row.port);
      if (found.length >= limit) return found;
    }
    after = batch[batch.length - 1].port;
    if (port !== undefined) return found;
  }
}
