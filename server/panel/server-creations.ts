import type { Selectable, Transaction } from "kysely";
import type { Db } from "../db/database.ts";
import type { Database, ServerCreationTable } from "../db/tables.ts";
import { ApiError } from "../errors.ts";
import type { Nodes } from "./nodes.ts";
import { releaseAllocations } from "./port-holders.ts";
import type { SharedState } from "./shared-state.ts";

/** No creation takes this long (a node's create call times out in seconds): a claim this old was cut short. */
const staleAfterMs = 10 * 60_000;

const conflict = (id: string) =>
  new ApiError(409, "ErrServerAlreadyExists", "server ${id} already exists", { id });

type Claim = Selectable<ServerCreationTable>;

/**
 * Makes a server's creation atomic across the panel and its node. The node
 * makes the folder and definition first, then the panel records the server;
 * a crash in between used to leave the node holding a server the panel did
 * not know, its id stuck (409 on create, 404 on read and delete). Now a claim
 * is written before the node is asked and removed in the transaction that
 * records the server, so a claim left behind names exactly the creations a
 * crash cut short: their leftovers on the node are removed at the next start
 * (or when the id is asked for again), and never anything the panel recorded.
 */
export class ServerCreations {
  /** Claims older than this process are not its own: a crash left them. */
  private readonly since = Date.now();
  /** One claim or take-back of an id at a time in this process. */
  private readonly busy = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly nodes: Nodes,
    /** Which panel made a claim, and whether it still lives: another live panel's claim is no crash's leftover. */
    private readonly shared?: SharedState,
  ) {}

  /** Claims an id for a creation on a node; answers the claim's stamp for settle/abandon. */
  claim(id: string, nodeId: number): Promise<number> {
    return this.exclusive(id, async () => {
      const left = await this.find(id);
      // A creation of this id is under way, or its leftovers cannot be taken back yet.
      if (left && !((await this.isStale(left)) && (await this.takeBack(left)))) throw conflict(id);
      const startedAt = Date.now();
      try {
        await this.db
          .insertInto("server_creations")
          .values({ id, node_id: nodeId, started_at: startedAt, panel_id: this.shared?.panelId ?? "" })
          .execute();
      } catch {
        throw conflict(id);
      }
      return startedAt;
    });
  }

  /** In the transaction that records the server: the claim ends with it (refused if it was taken back). */
  async settle(trx: Transaction<Database>, id: string, startedAt: number): Promise<void> {
    const result = await trx
      .deleteFrom("server_creations")
      .where("id", "=", id)
      .where("started_at", "=", startedAt)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw conflict(id);
  }

  /**
   * Runs the node's part of a claimed creation. A node that already holds the
   * id while the panel has neither a row nor (before this one) a claim for it
   * holds a leftover of a crash from before claims existed: it is taken back
   * and the creation tried once more. Our claim shuts out every other creation
   * of the id, so no server can be recorded under it meanwhile.
   */
  async onNode(id: string, nodeId: number, startedAt: number, create: () => Promise<void>): Promise<void> {
    try {
      await create();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "ErrServerAlreadyExists")) throw err;
      if (!(await this.takeBackUnclaimed({ id, node_id: nodeId, started_at: startedAt, panel_id: "" })))
        throw err;
      await create();
    }
  }

  /**
   * A creation that failed. When the node may hold part of it, that part is
   * removed first; if the node cannot be asked, the claim stays for a later
   * take-back.
   */
  abandon(id: string, startedAt: number, nodeMayHoldIt: boolean): Promise<void> {
    return this.exclusive(id, async () => {
      const claim = await this.find(id);
      if (!claim || claim.started_at !== startedAt) return;
      if (nodeMayHoldIt && !(await this.removeFromNode(claim))) return;
      await this.drop(claim);
    });
  }

  /** Takes back every claim a crash left; answers what was done, for the log. */
  async reconcile(): Promise<string[]> {
    const claims = await this.db.selectFrom("server_creations").selectAll().execute();
    const done: string[] = [];
    for (const listed of claims) {
      await this.exclusive(listed.id, async () => {
        const claim = await this.find(listed.id);
        if (!claim || !(await this.isStale(claim))) return;
        done.push(
          (await this.takeBack(claim))
            ? `server ${claim.id}: a creation cut short by a crash was taken back from node ${claim.node_id}`
            : `server ${claim.id}: a creation cut short by a crash waits for node ${claim.node_id} to answer`,
        );
      });
    }
    return done;
  }

  /**
   * Too old to be under way, or made by a panel that is gone. Several panels share the
   * database: a claim older than this process may be another live panel's creation in progress.
   */
  private async isStale(claim: Claim): Promise<boolean> {
    if (claim.started_at < Date.now() - staleAfterMs) return true;
    // Another panel's claim is a leftover once that panel is gone; this panel's (or one from
    // before claims named their panel) once it is older than this process: a crash left it.
    if (claim.panel_id && this.shared && claim.panel_id !== this.shared.panelId)
      return !(await this.shared.isAlive(claim.panel_id));
    return claim.started_at < this.since;
  }

  /** Removes what the node made of a cut-short creation, then its claim; false when the node cannot say. */
  private async takeBack(claim: Claim): Promise<boolean> {
    // A recorded server is never the node's leftover (recording removes the claim; this is a safeguard).
    if (!(await this.recorded(claim.id))) {
      if (!(await this.removeFromNode(claim))) return false;
      // The pool's ports it was given are free again.
      await releaseAllocations(this.db, claim.id);
    }
    await this.drop(claim);
    return true;
  }

  /** Removes a node's leftover nobody claimed, under our own claim; false when it is not ours to remove. */
  private takeBackUnclaimed(ours: Claim): Promise<boolean> {
    return this.exclusive(ours.id, async () => {
      const claim = await this.find(ours.id);
      if (claim?.started_at !== ours.started_at) return false;
      if (await this.recorded(ours.id)) return false;
      return this.removeFromNode(ours);
    });
  }

  private async recorded(id: string): Promise<boolean> {
    return !!(await this.db.selectFrom("servers").select("id").where("id", "=", id).executeTakeFirst());
  }

  private async removeFromNode(claim: Claim): Promise<boolean> {
    const client = await this.nodes.client(claim.node_id).catch(() => undefined);
    // A node removed since holds nothing to take back.
    if (!client) return true;
    try {
      await client.servers.deleteServer(claim.id);
      return true;
    } catch (err) {
      // Not there: the crash came before the node made it.
      return err instanceof ApiError && err.status === 404;
    }
  }

  private async find(id: string): Promise<Claim | undefined> {
    const row = await this.db
      .selectFrom("server_creations")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    // PostgreSQL answers bigint columns as strings.
    return row && { ...row, started_at: Number(row.started_at) };
  }

  private async drop(claim: Claim): Promise<void> {
    await this.db
      .deleteFrom("server_creations")
      .where("id", "=", claim.id)
      .where("started_at", "=", claim.started_at)
      .execute();
  }

  private exclusive<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = this.busy.get(id) ?? Promise.resolve();
    const run = before.catch(() => {}).then(work);
    const settled = run.catch(() => {});
    this.busy.set(id, settled);
    void settled.then(() => this.busy.get(id) === settled && this.busy.delete(id));
    return run;
  }
}
