import type { TransferTarget } from "../contract/api/transfers.ts";
import { transferExportPath } from "../contract/node/transfer-wire.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError, errors, errorText } from "../errors.ts";
import type { NodeClient } from "../link/node-client.ts";
import type { LiveConnections } from "./live-connections.ts";
import type { Nodes } from "./nodes.ts";
import type { Permissions } from "./permissions.ts";
import type { MovePlan, ServerPorts } from "./server-ports.ts";
import type { Settings } from "./settings.ts";

/** What a server's sockets hear while it moves (the `transfer` message). */
export interface TransferEvent {
  state: "copying" | "done" | "failed";
  /** The node it is moving to. */
  node: number;
  received: number;
  total: number;
  error?: string;
}

const progressEveryMs = 500;

/**
 * Moving a server to another node (issue 26). Told top to bottom:
 * 1. a row in server_transfers claims the server (one move at a time, across panels);
 * 2. the source holds the stopped server and mints a grant (refused while it runs);
 * 3. the target fetches files and backups from the source with it and checks the archive's size
 *    (the panel carries no bytes; it polls the target's progress for the server's sockets);
 * 4. one transaction switches the server's node and drops the claim;
 * 5. only then is the source's copy deleted.
 * A failure before 4 deletes the target's copy (a pull that fails leaves none anyway) and
 * releases the source: the server stays whole and usable where it was. Users, OAuth clients and
 * backups are rows keyed by the server's id, so they follow without a write; tasks live in the
 * node's files and travel with the definition.
 */
export class ServerTransfers {
  private readonly watchers = new Map<string, Set<(event: TransferEvent) => void>>();

  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
    private readonly nodes: Nodes,
    private readonly settings: Settings,
    private readonly live: LiveConnections,
    private readonly ports: ServerPorts,
    private readonly warn: (msg: string) => void = (msg) => process.emitWarning(msg),
  ) {}

  /** Hears the server's transfer events (its socket); answers the unsubscribe. */
  watch(serverId: string, watcher: (event: TransferEvent) => void): () => void {
    let set = this.watchers.get(serverId);
    if (!set) {
      set = new Set();
      this.watchers.set(serverId, set);
    }
    set.add(watcher);
    return () => {
      set.delete(watcher);
      if (set.size === 0 && this.watchers.get(serverId) === set) this.watchers.delete(serverId);
    };
  }

  /** Every other node, with its free space when it answers. */
  async targets(serverId: string): Promise<TransferTarget[]> {
    const { node_id } = await this.row(serverId);
    const nodes = (await this.nodes.list()).filter((node) => node.id !== node_id);
    return Promise.all(
      nodes.map(async (node) => {
        const client = await this.nodes.client(node.id).catch(() => undefined);
        const space = await client?.transfers.space().catch(() => undefined);
        return {
          id: node.id,
          name: node.name,
          reachable: space !== undefined,
          ...(space ? { free: space.free } : {}),
          ...(await this.portPreview(serverId, node.id)),
        };
      }),
    );
  }

  async transfer(serverId: string, targetId: number): Promise<void> {
    const row = await this.row(serverId);
    if (row.node_id === targetId)
      throw new ApiError(400, "ErrTransferSameNode", "the server is already on node ${node}", {
        node: targetId,
      });
    const target = await this.nodes.client(targetId).catch(() => {
      throw new ApiError(400, "ErrNodeInvalid", "node ${node} does not exist", { node: targetId });
    });
    const source = await this.nodes.client(row.node_id);
    const status = await source.servers.status(serverId);
    if (status.running || status.installing) throw running();
    // Where its ports go on the target's pool, decided (or refused) before anything moves.
    const plan = await this.ports.planMove(serverId, () => source.servers.definition(serverId), targetId);
    await this.claim(serverId, row.node_id, targetId);
    const event: TransferEvent = { state: "copying", node: targetId, received: 0, total: 0 };
    try {
      const offer = await source.transfers.offer(serverId);
      event.total = offer.bytes;
      this.emit(serverId, event);
      const url = offer.url ?? (await this.panelUrl()) + transferExportPath(serverId);
      try {
        await this.whileReporting(serverId, target, event, () =>
          target.transfers.pull(serverId, { url, grant: offer.grant }),
        );
        if (Object.keys(plan.values).length > 0)
          await target.servers.setServerData(serverId, plan.values, false);
        await this.switchNode(serverId, row.node_id, targetId, plan);
      } catch (error) {
        // The target may hold the whole server (the switch failed) or nothing (the pull failed).
        await target.servers.deleteServer(serverId).catch(() => {});
        await source.transfers.release(serverId).catch(() => {});
        throw error;
      }
    } catch (error) {
      await this.unclaim(serverId);
      this.emit(serverId, { ...event, state: "failed", error: errorText(error) });
      throw error;
    }
    this.emit(serverId, { ...event, state: "done", received: event.total });
    await this.dropSource(serverId, source);
    await this.activate(serverId, target);
  }

  /**
   * Transfers a crash cut short: before the switch the target's copy goes, after it the
   * source's. Answers what it did, for the log.
   */
  async reconcile(): Promise<string[]> {
    const done: string[] = [];
    const rows = await this.db
      .selectFrom("server_transfers")
      .selectAll()
      .where("started_at", "<", this.since)
      .execute();
    for (const left of rows) {
      const server = await this.db
        .selectFrom("servers")
        .select("node_id")
        .where("id", "=", left.server_id)
        .executeTakeFirst();
      const switched = server?.node_id === left.to_node;
      const stale = switched ? left.from_node : left.to_node;
      try {
        const client = await this.nodes.client(stale);
        await client.servers.deleteServer(left.server_id).catch((error) => {
          if (!(error instanceof ApiError && error.code === "ErrServerNotFound")) throw error;
        });
        if (!switched) await (await this.nodes.client(left.from_node)).transfers.release(left.server_id);
        else await this.activate(left.server_id, await this.nodes.client(left.to_node));
        await this.unclaim(left.server_id);
        done.push(`server ${left.server_id}: an interrupted move was undone on node ${stale}`);
      } catch (error) {
        done.push(`server ${left.server_id}: an interrupted move not undone yet: ${errorText(error)}`);
      }
    }
    return done;
  }

  /** Claims older than this process are not its own. */
  private readonly since = Date.now();

  private async whileReporting<T>(
    serverId: string,
    target: NodeClient,
    event: TransferEvent,
    work: () => Promise<T>,
  ): Promise<T> {
    const timer = setInterval(() => {
      target.transfers
        .progress(serverId)
        .then((progress) => {
          if (!progress) return;
          event.received = progress.received;
          this.emit(serverId, event);
        })
        .catch(() => {});
    }, progressEveryMs);
    try {
      return await work();
    } finally {
      clearInterval(timer);
    }
  }

  /** What GET …/transfer shows of a node's pool: where the ports would go, or why they cannot. */
  private async portPreview(serverId: string, nodeId: number) {
    try {
      const plan = await this.ports.planMove(
        serverId,
        async () =>
          (await this.nodes.client((await this.row(serverId)).node_id)).servers.definition(serverId),
        nodeId,
      );
      return plan.moves.length > 0 ? { ports: plan.moves.map(({ from, to }) => ({ from, to })) } : {};
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return { portsRefused: error.code };
      return {};
    }
  }

  private async switchNode(serverId: string, from: number, to: number, plan: MovePlan): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Its old node's allocations go back; the target's the plan chose are taken (or the switch fails).
      const address = await this.ports.applyMove(trx, serverId, plan);
      const switched = await trx
        .updateTable("servers")
        .set({ node_id: to, ...address })
        .where("id", "=", serverId)
        .where("node_id", "=", from)
        .executeTakeFirst();
      if (Number(switched.numUpdatedRows) !== 1) throw errors.serverNotFound();
      await trx.deleteFrom("server_transfers").where("server_id", "=", serverId).execute();
    });
  }

  /** After the switch and the source's copy is gone: the server's tasks start on the target. */
  private async activate(serverId: string, target: NodeClient): Promise<void> {
    await target.transfers.activate(serverId).catch((error) => {
      // They start anyway at the target's next start, or when the server's tasks are next used.
      this.warn(
        `server ${serverId} moved, but node ${target.nodeId} did not start its tasks yet: ${errorText(error)}`,
      );
    });
  }

  /** After the switch: what was open on the source ends, and its copy goes. */
  private async dropSource(serverId: string, source: NodeClient): Promise<void> {
    this.live.closeForServerMoved(serverId, await this.permissions.usersOf(serverId), source);
    await source.transfers.release(serverId).catch(() => {});
    await source.servers.deleteServer(serverId).catch((error) => {
      this.warn(
        `server ${serverId} moved, but its old copy on node ${source.nodeId} was not removed: ${errorText(error)}`,
      );
    });
  }

  private async claim(serverId: string, from: number, to: number): Promise<void> {
    try {
      await this.db
        .insertInto("server_transfers")
        .values({ server_id: serverId, from_node: from, to_node: to, started_at: Date.now() })
        .execute();
    } catch (error) {
      // Only the claim's key taken means another move; any other failure is itself (a 500, logged with its cause).
      if (!isUniqueViolation(error)) throw error;
      throw new ApiError(409, "ErrTransferInProgress", "this server is already being moved", undefined, {
        cause: error,
      });
    }
  }

  private async unclaim(serverId: string): Promise<void> {
    await this.db.deleteFrom("server_transfers").where("server_id", "=", serverId).execute();
  }

  private emit(serverId: string, event: TransferEvent): void {
    for (const watcher of this.watchers.get(serverId) ?? []) watcher({ ...event });
  }

  private async panelUrl(): Promise<string> {
    return String(await this.settings.get("panel.settings.masterUrl")).replace(/\/+$/, "");
  }

  private async row(serverId: string) {
    const row = await this.db
      .selectFrom("servers")
      .select(["id", "node_id"])
      .where("id", "=", serverId)
      .executeTakeFirst();
    if (!row) throw errors.serverNotFound();
    return row;
  }
}

const running = () =>
  new ApiError(409, "ErrServerRunning", "stop the server before moving it to another node");
