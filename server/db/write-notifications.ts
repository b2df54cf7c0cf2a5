import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type Pg from "pg";
import type { Database } from "./tables.ts";
import type { WriteGeneration } from "./write-generation.ts";

/**
 * How a panel on PostgreSQL learns that the database changed, whoever wrote
 * to it: another panel sharing the database, the `outpost user` command, psql.
 *
 * Every table has a statement-level trigger that sends a notification on
 * `writesChannel`; PostgreSQL delivers it when the writing transaction
 * commits (and drops it on rollback), once per transaction. Each panel holds
 * one connection of its own that LISTENs on the channel and bumps the write
 * generation (write-generation.ts) on every notification, so the answers it
 * keeps in memory (read-cache.ts) are dropped.
 *
 * Notifications are scoped to one database; panels using different schemas
 * of one database share the channel and only drop their caches more often.
 *
 * The one window left: between another connection's commit and the arrival
 * of its notification here (typically well under a millisecond on one host,
 * a network round trip otherwise, and never more than `currentForMs`: see
 * WriteListener) this panel may still answer a read from memory with what
 * that commit replaced. This panel's own writes bump the generation
 * synchronously (countingWrites), so they have no such window; and a write
 * request is authorised against the database, not memory (principal.ts).
 */
export const writesChannel = "outpost_writes";
const notifyFunction = "outpost_notify_write";
const triggerName = "outpost_notify_write";

/** The trigger function that notifies the channel (created by a migration). */
export async function createNotifyFunction<T>(db: Kysely<T>): Promise<void> {
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION ${notifyFunction}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${writesChannel}', '');
        RETURN NULL;
      END $$`,
    )
    .execute(db);
}

/**
 * Our tables, each to notify its writes (true) or deliberately not (false).
 * The compiler insists that every table of `Database` is named here, so a
 * table added later cannot be forgotten; the tables of other applications
 * sharing the schema are left alone. A table no kept answer is read from
 * (a log) is false: its writes — every sign-in, every change — would
 * otherwise make every panel drop its caches.
 */
const ourTables: Record<keyof Database, boolean> = {
  activity: false,
  backups: true,
  backup_targets: false,
  // Read afresh by every request that uses them: no kept answer depends on them.
  database_hosts: false,
  server_databases: false,
  allocations: false,
  // Read only by `outpost import`: no kept answer depends on it.
  imported: false,
  templates: true,
  template_repos: true,
  nodes: true,
  servers: true,
  server_creations: true,
  // No cached read depends on transfers in progress: left out (false).
  server_transfers: false,
  users: true,
  otp_recovery_codes: true,
  permissions: true,
  permission_presets: true,
  // A user's roles are part of the scopes a kept session holds (principal.ts).
  roles: true,
  user_roles: true,
  sessions: true,
  oauth_clients: true,
  settings: true,
  user_settings: true,
  notification_channels: false,
  notification_keys: false,
  notification_claims: false,
  user_devices: false,
  shared_events: false,
  shared_panels: false,
  shared_connections: false,
  shared_jobs: false,
  // Read afresh by each sign-in that uses them (issue 39): no kept answer depends on them.
  ssh_keys: false,
  // A passkey counts as the second factor a kept session may be held to enrol (principal.ts).
  passkeys: true,
  oidc_providers: false,
  oidc_links: false,
  sign_in_challenges: false,
};
const notifyingTables = Object.entries(ourTables)
  .filter(([, notifies]) => notifies)
  .map(([name]) => name);

/** Tables whose writes no kept answer depends on: the panel's own writes to them do not bump the generation either. */
export const unwatchedTables = Object.entries(ourTables)
  .filter(([, notifies]) => !notifies)
  .map(([name]) => name);

/**
 * Gives each of our tables that exists and lacks it the notifying trigger.
 * Run by the migration that brought it and after every migration run, so a
 * table that a later migration adds gets it too. Two panels starting at once
 * may race: the loser's "already exists" is ignored.
 */
export async function notifyOnEveryTable<T>(db: Kysely<T>): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c
    WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
      AND c.relkind = 'r' AND c.relname = ANY(${notifyingTables})
      AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = ${triggerName})
  `.execute(db);
  for (const { name } of rows) {
    try {
      await sql`CREATE TRIGGER ${sql.id(triggerName)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
        ON ${sql.id(name)} FOR EACH STATEMENT EXECUTE FUNCTION ${sql.id(notifyFunction)}()`.execute(db);
    } catch (err) {
      // 42710 duplicate_object: another panel made it meanwhile.
      if ((err as { code?: string }).code !== "42710") throw err;
    }
  }
}

/** Where the listener tells of losing and regaining its connection (the panel's logger). */
export interface ListenerLog {
  info(msg: string): void;
  warn(msg: string): void;
}

/** Reconnection waits, doubling from the first to the last. */
const firstRetryMs = 100;
const lastRetryMs = 10_000;
/**
 * How often the listener proves it hears the database (a round trip of its own notification), how
 * long an answer may take before the connection counts as lost, and how old the last proof may be
 * before nothing is answered from memory.
 */
const beatMs = 250;
const answerMs = 3000;
export const currentForMs = 1000;

/**
 * The panel's LISTEN connection (its own pg Client, not one of the pool's).
 * The generation is disabled until it listens, and again from the moment it
 * loses its connection until it listens again: meanwhile every answer comes
 * from the database. Reconnects with a growing wait; `close` ends it.
 *
 * A connection that stalls without a word (a network cut, a frozen server)
 * would leave this panel deaf while it keeps answering from memory. So every
 * beatMs the listener sends a notification to a channel of its own and waits
 * for it to come back: PostgreSQL queues all notifications in one commit
 * order, so its return proves that every write committed before it was sent
 * has been heard. When the last proof is older than currentForMs, the
 * generation is disabled (answers come from the database, as while the
 * connection is lost) until a round trip succeeds again; after answerMs
 * without one the connection is dropped and made again. What remains is the
 * window described above, now at most currentForMs on a stalled connection.
 * Writes never rely on it: the guard reads their caller's session from the
 * database (principal.ts).
 */
export class WriteListener {
  private client: Pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private nextBeat: NodeJS.Timeout | undefined;
  private staleAt: NodeJS.Timeout | undefined;
  private waitMs = firstRetryMs;
  private closed = false;
  private wasListening = false;
  private stale = false;
  /** This listener's own channel for its round trips: other panels do not hear them. */
  private readonly beatChannel = `outpost_beat_${randomBytes(8).toString("hex")}`;
  private beatCount = 0;
  /** The round trip under way: its number, when it was sent, and the timer that gives up on it. */
  private beat: { n: number; sentAt: number; giveUp: NodeJS.Timeout } | undefined;

  constructor(
    private readonly pg: typeof Pg,
    private readonly connectionString: string,
    private readonly generation: WriteGeneration,
    private readonly log: ListenerLog,
  ) {
    generation.disable();
    void this.connect();
  }

  private async connect(): Promise<void> {
    this.retry = undefined;
    if (this.closed) return;
    const client = new this.pg.Client({
      connectionString: this.connectionString,
      // Named with the panel's process id: which panel a connection belongs to shows in pg_stat_activity.
      application_name: `outpost write listener ${process.pid}`,
      connectionTimeoutMillis: answerMs,
      query_timeout: answerMs,
    });
    this.client = client;
    client.on("notification", (message) => {
      if (message.channel === this.beatChannel) this.heard(client, Number(message.payload));
      else this.generation.bumpFromElsewhere();
    });
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${writesChannel}; LISTEN ${this.beatChannel}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    // Closed or lost while connecting: that path has dealt with it.
    if (this.client !== client) return;
    this.waitMs = firstRetryMs;
    this.stale = false;
    // Listening from here on: what was kept before (nothing, or answers from before the loss) is dropped.
    this.generation.enable();
    this.currentUntil(Date.now() + currentForMs);
    this.send(client);
    this.log.info(
      `listening to the database's writes${this.wasListening ? " again" : ""}; answers are kept in memory`,
    );
    this.wasListening = true;
  }

  /** Sends the next round trip; an error or no answer within answerMs loses the connection. */
  private send(client: Pg.Client): void {
    if (this.client !== client) return;
    const n = ++this.beatCount;
    const giveUp = setTimeout(() => this.lost(client, new Error("no answer to the heartbeat")), answerMs);
    giveUp.unref();
    this.beat = { n, sentAt: Date.now(), giveUp };
    client
      .query("SELECT pg_notify($1, $2)", [this.beatChannel, String(n)])
      .catch((err: Error) => this.lost(client, err));
  }

  /** A round trip came back: writes committed before it was sent are all heard. */
  private heard(client: Pg.Client, n: number): void {
    const beat = this.beat;
    if (this.client !== client || beat === undefined || beat.n !== n) return;
    this.beat = undefined;
    clearTimeout(beat.giveUp);
    if (this.stale) {
      this.stale = false;
      // Enabling drops what was kept before: the notifications that arrived late bumped it anyway.
      this.generation.enable();
      this.log.info("the database's write notifications are current again; keeping answers in memory");
    }
    this.currentUntil(beat.sentAt + currentForMs);
    this.nextBeat = setTimeout(() => this.send(client), beatMs);
    this.nextBeat.unref();
  }

  /** Answers may come from memory until `until`, unless another round trip comes back before. */
  private currentUntil(until: number): void {
    clearTimeout(this.staleAt);
    this.staleAt = setTimeout(() => this.lapsed(), Math.max(0, until - Date.now()));
    this.staleAt.unref();
  }

  private lapsed(): void {
    if (this.client === undefined || this.stale) return;
    this.stale = true;
    this.generation.disable();
    this.log.warn(
      `the database's write notifications are not confirmed for ${currentForMs} ms; ` +
        "answering from the database until they are",
    );
  }

  private stopBeating(): void {
    clearTimeout(this.nextBeat);
    clearTimeout(this.staleAt);
    if (this.beat) clearTimeout(this.beat.giveUp);
    this.beat = undefined;
  }

  private lost(client: Pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.stopBeating();
    this.generation.disable();
    client.end().catch(() => {});
    if (this.closed) return;
    this.log.warn(
      `lost the connection that listens to the database's writes (${err?.message ?? "closed"}); ` +
        `answering from the database until it is back, next try in ${this.waitMs} ms`,
    );
    this.retry = setTimeout(() => void this.connect(), this.waitMs);
    this.retry.unref();
    this.waitMs = Math.min(this.waitMs * 2, lastRetryMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.stopBeating();
    const client = this.client;
    this.client = undefined;
    this.generation.disable();
    await client?.end().catch(() => {});
  }
}
