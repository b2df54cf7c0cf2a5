import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PostgresAdapter, sql, type Transaction } from "kysely";
import type { Db } from "../db/database.ts";
import type { Database } from "../db/tables.ts";

/** How often a panel renews its lease, and how long a lease lasts: a killed panel's places free up within it. */
export const panelBeatMs = 5_000;
export const panelLeaseMs = 15_000;

/** One open connection's place, counted against the caps. */
export interface HeldConnection {
  userId: number;
  sessionHash: string;
  address: string;
}

/** The caps a new connection must fit under; `what` names the one that is full. */
export interface ConnectionCaps {
  perUser: number;
  perSession: number;
  perAddress: number;
}

export type FullCap = "user" | "session" | "address";

/**
 * Everything that limits or schedules, kept in the database so that every
 * panel sharing it counts and schedules together (DESIGN.md: "several panels
 * on one PostgreSQL share everything that limits or schedules"). Adding a
 * panel must not multiply an attacker's guesses or open sockets, nor run a
 * job twice. One mechanism for all of it, with the same code on SQLite (one
 * panel) and PostgreSQL:
 *
 * - events: times under a key, each row with its expiry (failed sign-ins,
 *   codes, registrations, mailed invitations: login-throttle.ts,
 *   invite-mail-throttle.ts);
 * - connections: one row per open socket or SFTP session, held by a panel
 *   whose lease (shared_panels) it renews every panelBeatMs; a panel that dies
 *   without a word stops counting once its lease lapses (live-connections.ts);
 * - jobs: a row per background job saying when it may run next; the panel
 *   whose conditional update moves it runs it, the others skip;
 * - exclusive(): check-then-write under a lock. On PostgreSQL a transaction
 *   advisory lock (released at commit, or when a killed panel's connection
 *   drops); SQLite has one writer, and this process's one connection runs one
 *   transaction at a time.
 *
 * These tables are left out of the write notifications (write-notifications.ts):
 * nothing kept in memory depends on them, and every read here goes to the database.
 */
export class SharedState {
  private readonly postgres: boolean;
  /** The alive_until this panel last wrote. */
  private leaseUntil = 0;
  /** The jobs whose row this panel made sure of: rows are never deleted, so once is enough. */
  private readonly seededJobs = new Set<string>();

  constructor(
    private readonly db: Db,
    /** This panel's name in shared_panels, shared_connections and creation claims (panelIdOf). */
    readonly panelId: string = randomUUID(),
  ) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * At start: what an earlier run of this panel held (a crash left its places counted under
   * this name) is given back, and the lease begins.
   */
  async begin(): Promise<void> {
    await this.leave();
    await this.beat();
  }

  /** Whether the database answers a query within waitMs (GET /api/health). */
  async databaseAnswers(waitMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    });
    const answered = sql`select 1`
      .execute(this.db)
      .then(() => true)
      .catch(() => false);
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The times recorded under these keys after `since`, by key. */
  async times(keys: string[], since: number): Promise<Map<string, number[]>> {
    const rows = await this.db
      .selectFrom("shared_events")
      .select(["key", "at"])
      .where("key", "in", keys)
      .where("at", ">", since)
      .orderBy("at")
      .execute();
    const byKey = new Map<string, number[]>(keys.map((k) => [k, []]));
    for (const row of rows) byKey.get(row.key)?.push(Number(row.at));
    return byKey;
  }

  /** Records one event at `at` under each key, each kept for its own time. */
  async record(events: { key: string; keepMs: number }[], at: number): Promise<void> {
    await this.db
      .insertInto("shared_events")
      .values(events.map(({ key, keepMs }) => ({ key, at, expires_at: at + keepMs })))
      .execute();
  }

  async forget(key: string): Promise<void> {
    await this.db.deleteFrom("shared_events").where("key", "=", key).execute();
  }

  /** Runs `work` while no other panel runs work under the same name. */
  exclusive<T>(name: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.postgres) await sql`select pg_advisory_xact_lock(hashtext(${`outpost:${name}`}))`.execute(trx);
      return work(trx);
    });
  }

  /** Renews this panel's lease (the serve loop calls it every panelBeatMs). */
  async beat(now = Date.now()): Promise<void> {
    const until = now + panelLeaseMs;
    await this.db
      .insertInto("shared_panels")
      .values({ id: this.panelId, alive_until: until })
      .onConflict((oc) => oc.column("id").doUpdateSet({ alive_until: until }))
      .execute();
    this.leaseUntil = until;
  }

  /**
   * Takes a place for a connection, or names the cap that is full. Counts
   * only places held by panels whose lease has not lapsed.
   */
  async holdConnection(id: string, held: HeldConnection, caps: ConnectionCaps): Promise<FullCap | undefined> {
    const now = Date.now();
    // A lease about to lapse would leave this place uncounted by the others: renew it first.
    if (this.leaseUntil - now < panelLeaseMs - panelBeatMs) await this.beat(now);
    return this.exclusive("connections", async (trx) => {
      const row = await trx
        .selectFrom("shared_connections as c")
        .innerJoin("shared_panels as p", "p.id", "c.panel_id")
        .where("p.alive_until", ">", now)
        .select((eb) => [
          eb.fn.sum<number>(eb.case().when("c.user_id", "=", held.userId).then(1).else(0).end()).as("user"),
          eb.fn
            .sum<number>(eb.case().when("c.session_hash", "=", held.sessionHash).then(1).else(0).end())
            .as("session"),
          eb.fn
            .sum<number>(eb.case().when("c.address", "=", held.address).then(1).else(0).end())
            .as("address"),
        ])
        .executeTakeFirst();
      const count = (n: unknown) => Number(n ?? 0);
      if (count(row?.user) >= caps.perUser) return "user";
      if (count(row?.session) >= caps.perSession) return "session";
      if (count(row?.address) >= caps.perAddress) return "address";
      await trx
        .insertInto("shared_connections")
        .values({
          id,
          panel_id: this.panelId,
          user_id: held.userId,
          session_hash: held.sessionHash,
          address: held.address,
        })
        .execute();
      return undefined;
    });
  }

  async releaseConnection(id: string): Promise<void> {
    await this.db.deleteFrom("shared_connections").where("id", "=", id).execute();
  }

  /** A renewed session takes the old one's places (live-connections.ts renameSession). */
  async renameSession(from: string, to: string): Promise<void> {
    await this.db
      .updateTable("shared_connections")
      .set({ session_hash: to })
      .where("panel_id", "=", this.panelId)
      .where("session_hash", "=", from)
      .execute();
  }

  /** Whether a panel still holds its lease (another panel's work in progress is not a crash's leftover). */
  async isAlive(panelId: string, now = Date.now()): Promise<boolean> {
    if (panelId === this.panelId) return true;
    const row = await this.db
      .selectFrom("shared_panels")
      .select("alive_until")
      .where("id", "=", panelId)
      .executeTakeFirst();
    return row !== undefined && Number(row.alive_until) > now;
  }

  /**
   * Claims the job's next run: true for the one panel whose update moved the
   * job's next time past now (it then runs the job), false for every other.
   */
  async claimJob(name: string, everyMs: number, now = Date.now()): Promise<boolean> {
    if (!this.seededJobs.has(name)) {
      await this.db
        .insertInto("shared_jobs")
        .values({ name, next_at: 0 })
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
      this.seededJobs.add(name);
    }
    const result = await this.db
      .updateTable("shared_jobs")
      .set({ next_at: now + everyMs })
      .where("name", "=", name)
      .where("next_at", "<=", now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Runs the job when this panel claims its turn; a failure is reported, and the job runs again next period. */
  async runJob(name: string, everyMs: number, job: () => Promise<void>): Promise<boolean> {
    if (!(await this.claimJob(name, everyMs))) return false;
    await job();
    return true;
  }

  /** Drops expired events and what dead panels left (run as a job). */
  async prune(now = Date.now()): Promise<void> {
    await this.db.deleteFrom("shared_events").where("expires_at", "<=", now).execute();
    // A panel dead for a whole lease more is forgotten, and with it its places (none counted already).
    await this.db
      .deleteFrom("shared_panels")
      .where("alive_until", "<=", now - panelLeaseMs)
      .execute();
    await this.db
      .deleteFrom("shared_connections")
      .where("panel_id", "not in", this.db.selectFrom("shared_panels").select("id"))
      .execute();
  }

  /** A panel stopping cleanly gives its places back at once. */
  async leave(): Promise<void> {
    await this.db.deleteFrom("shared_connections").where("panel_id", "=", this.panelId).execute();
    await this.db.deleteFrom("shared_panels").where("id", "=", this.panelId).execute();
  }
}

/**
 * The panel's name, kept in its data folder, so that a panel restarted after a
 * crash knows its own leftovers (its creation claims, its places) from those
 * of other panels still running.
 */
export function panelIdOf(dataDir: string): string {
  const file = path.join(dataDir, "panel-id");
  try {
    const id = fs.readFileSync(file, "utf8").trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return id;
  } catch {
    // not made yet
  }
  const id = randomUUID();
  fs.writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
