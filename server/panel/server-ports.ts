import type { Db } from "../db/database.ts";
import { portVariables, type Template, type Variable, type VariableValue } from "../templates/index.ts";
import { findFree } from "./node-allocations.ts";
import type { Permissions } from "./permissions.ts";
import {
  type AllocationRow,
  allocationsOf,
  claimAllocation,
  noFreeAllocation,
  pooled,
  portHolder,
  portNotInPool,
  portTaken,
  releaseAllocations,
} from "./port-holders.ts";
import type { Principal } from "./principal.ts";

type Data = Record<string, Partial<Variable>>;

/** What a creation on a pooled node was given: the port of each variable, and the primary's ip. */
export interface CreatedPorts {
  values: Record<string, number>;
  ip: string;
  port: number;
}

/** A move's plan: which allocation of the target each of the server's ports goes to. */
export interface MovePlan {
  /** Empty when the target has no pool: the server keeps its ports as they are. */
  moves: { from: number; to: number; allocationId: number; variable: string | null; primary: boolean }[];
  values: Record<string, number>;
}

/** The definition with its port variables set to the ports its allocations gave. */
export function withPortValues(definition: Record<string, unknown>, values: Record<string, number>) {
  const data = { ...((definition.data ?? {}) as Record<string, Partial<Variable>>) };
  for (const [name, port] of Object.entries(values)) data[name] = { ...data[name], value: port };
  return { ...definition, data };
}

/** The values of a definition's variables, by name. */
export function portValues(data: Record<string, Partial<Variable>>): Record<string, VariableValue> {
  return Object.fromEntries(
    Object.entries(data)
      .filter(([, variable]) => variable.value !== undefined)
      .map(([name, variable]) => [name, variable.value as VariableValue]),
  );
}

/** How many times a pick is tried again when another creation took the same free one first. */
const claimAttempts = 5;

/**
 * Ports of servers on nodes with allocations (issue 36): on create each port variable of the
 * template takes a free allocation; a variable's change moves it to another; a move maps them to
 * the target's pool. No two servers of a node use the same port. A node without allocations is
 * left as it was: its servers' ports are their template's values, unchecked.
 */
export class ServerPorts {
  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
  ) {}

  /**
   * Before the node makes the server: claims an allocation for each port variable, the one the
   * creator chose (`chosen`, by variable), else the variable's own value when it is free, else the
   * next free one. Undefined on a node without a pool.
   */
  async claimForCreate(
    serverId: string,
    nodeId: number,
    definition: Record<string, unknown>,
    chosen: Record<string, unknown> | undefined,
    principal?: Principal,
  ): Promise<CreatedPorts | undefined> {
    if (!(await pooled(this.db, nodeId))) return undefined;
    // No row of this id exists (create checked): what it holds was left by a creation cut short.
    await releaseAllocations(this.db, serverId);
    const data = (definition.data ?? {}) as Data;
    const values: Record<string, number> = {};
    let primary: AllocationRow | undefined;
    try {
      for (const [index, variable] of portVariables(data).entries()) {
        const wanted = chosen?.[variable];
        const claimed =
          wanted === undefined
            ? await this.claimFree(serverId, nodeId, variable, index === 0, Number(data[variable]?.value))
            : await this.claimChosen(serverId, nodeId, variable, index === 0, Number(wanted), principal);
        values[variable] = claimed.port;
        if (index === 0) primary = claimed;
      }
    } catch (error) {
      await releaseAllocations(this.db, serverId);
      throw error;
    }
    if (!primary) return undefined;
    return { values, ip: primary.ip, port: primary.port };
  }

  pooled(nodeId: number): Promise<boolean> {
    return pooled(this.db, nodeId);
  }

  /** The creation failed, or the server is gone: its allocations are free again. */
  release(serverId: string): Promise<void> {
    return releaseAllocations(this.db, serverId);
  }

  /**
   * Before new values (or a new definition) reach a pooled node: the port variables among them
   * must be ports no other server of the node uses, in its pool. Answers what
   * to write once the node took them (undefined: nothing).
   */
  async checkChange(
    serverId: string,
    nodeId: number,
    portNames: string[],
    values: Record<string, VariableValue>,
    principal?: Principal,
  ): Promise<(() => Promise<void>) | undefined> {
    const held = await allocationsOf(this.db, serverId);
    const steps: (() => Promise<unknown>)[] = [];
    for (const variable of portNames) {
      if (!(variable in values)) continue;
      const port = Number(values[variable]);
      // Not a port at all: the node refuses it as it refuses any value of the wrong type.
      if (!Number.isInteger(port)) continue;
      const bound = held.find((row) => row.variable === variable);
      if (bound?.port === port) continue;
      const holder = await portHolder(this.db, nodeId, port, serverId);
      if (holder) throw await portTaken(this.db, this.permissions, principal, port, holder);
      const own = held.find((row) => row.port === port && row.variable === null);
      const target = own ?? (await findFree(this.db, nodeId, { port }))[0];
      if (!target) throw portNotInPool(port);
      const primary = bound
        ? bound.is_primary === 1
        : portNames[0] === variable && !held.some((r) => r.is_primary);
      steps.push(async () => {
        // The old one goes back to the pool, or stays the server's as an extra when it took an extra's place.
        if (bound)
          await this.db
            .updateTable("allocations")
            .set(own ? { variable: null, is_primary: 0 } : { server_id: null, variable: null, is_primary: 0 })
            .where("id", "=", bound.id)
            .execute();
        await this.db
          .updateTable("allocations")
          .set({ server_id: serverId, variable, is_primary: primary ? 1 : 0 })
          .where("id", "=", target.id)
          .execute();
      });
    }
    if (steps.length === 0) return undefined;
    return async () => {
      for (const step of steps) await step();
    };
  }

  /**
   * Where the server's ports go on another node, decided before anything moves: the same port
   * where the target has it free, else its next free one; refused when it has too few.
   */
  async planMove(
    serverId: string,
    definitionOf: () => Promise<Template>,
    targetId: number,
    principal?: Principal,
  ): Promise<MovePlan> {
    if (!(await pooled(this.db, targetId))) return { moves: [], values: {} };
    const definition = await definitionOf();
    const held = await allocationsOf(this.db, serverId);
    const names = portVariables(definition.data as Data);
    // A server that held none (its node had no pool) takes its port variables' values along.
    const ports =
      held.length > 0
        ? held.map((row) => ({ port: row.port, variable: row.variable, primary: row.is_primary === 1 }))
        : names.map((variable, index) => ({
            port: Number(definition.data[variable]?.value),
            variable,
            primary: index === 0,
          }));
    const taken = new Set<number>();
    const moves: MovePlan["moves"] = [];
    for (const { port, variable, primary } of ports) {
      let [target] = await findFree(this.db, targetId, { port, skip: taken });
      if (!target) {
        const [next] = await findFree(this.db, targetId, { skip: taken });
        if (!next) {
          const holder = await portHolder(this.db, targetId, port, serverId);
          throw holder
            ? await portTaken(this.db, this.permissions, principal, port, holder)
            : noFreeAllocation();
        }
        target = next;
      }
      taken.add(target.port);
      moves.push({ from: port, to: target.port, allocationId: target.id, variable, primary });
    }
    const values: Record<string, number> = {};
    for (const move of moves) if (move.variable) values[move.variable] = move.to;
    return { moves, values };
  }

  /**
   * In the transaction that switches the server's node: it gives back what it held and takes
   * what the plan chose (refused, and so rolled back, if another server took one meanwhile).
   */
  async applyMove(
    trx: Db,
    serverId: string,
    plan: MovePlan,
  ): Promise<{ ip: string; port: number } | undefined> {
    await releaseAllocations(trx, serverId);
    let primary: { ip: string; port: number } | undefined;
    for (const move of plan.moves) {
      if (!(await claimAllocation(trx, move.allocationId, serverId, move.variable, move.primary)))
        throw noFreeAllocation();
      if (move.primary) {
        const row = await trx
          .selectFrom("allocations")
          .select(["ip", "port"])
          .where("id", "=", move.allocationId)
          .executeTakeFirstOrThrow();
        primary = row;
      }
    }
    return primary;
  }

  /** The primary allocation's address, which is the server's `ip`/`port` while it holds one. */
  async primaryOf(serverId: string): Promise<{ ip: string; port: number } | undefined> {
    return await this.db
      .selectFrom("allocations")
      .select(["ip", "port"])
      .where("server_id", "=", serverId)
      .where("is_primary", "=", 1)
      .executeTakeFirst();
  }

  private async claimChosen(
    serverId: string,
    nodeId: number,
    variable: string,
    primary: boolean,
    port: number,
    principal?: Principal,
  ): Promise<AllocationRow> {
    const holder = await portHolder(this.db, nodeId, port, serverId);
    if (holder) throw await portTaken(this.db, this.permissions, principal, port, holder);
    const [row] = await findFree(this.db, nodeId, { port });
    if (!row) throw portNotInPool(port);
    if (!(await claimAllocation(this.db, row.id, serverId, variable, primary))) {
      const now = await portHolder(this.db, nodeId, port, serverId);
      throw now ? await portTaken(this.db, this.permissions, principal, port, now) : portNotInPool(port);
    }
    return row;
  }

  private async claimFree(
    serverId: string,
    nodeId: number,
    variable: string,
    primary: boolean,
    preferred: number,
  ): Promise<AllocationRow> {
    for (let attempt = 0; attempt < claimAttempts; attempt++) {
      const [same] =
        attempt === 0 && Number.isInteger(preferred)
          ? await findFree(this.db, nodeId, { port: preferred })
          : [];
      const [row] = same ? [same] : await findFree(this.db, nodeId);
      if (!row) throw noFreeAllocation();
      if (await claimAllocation(this.db, row.id, serverId, variable, primary)) return row;
    }
    throw noFreeAllocation();
  }
}
