import { type Kysely, sql } from "kysely";
import type Pg from "pg";
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
 * a network round trip otherwise) this panel may still answer from memory
 * what that commit replaced. This panel's own writes bump the generation
 * synchronously (countingWrites), so they have no such window.
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
 * Gives every table of the current schema that lacks it the notifying
 * trigger. Run after every migration run, so a table added later cannot be
 * forgotten. Two panels starting at once may race: the loser's "already
 * exists" is ignored.
 */
export async function notifyOnEveryTable<T>(db: Kysely<T>): Promise<void> {
  await sql
    .raw(
      `DO $$
      DECLARE t record;
      BEGIN
        FOR t IN
          SELECT c.relname FROM pg_class c
          WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
            AND c.relkind = 'r'
            AND NOT EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = '${triggerName}')
        LOOP
          BEGIN
            EXECUTE format(
              'CREATE TRIGGER ${triggerName} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I.%I '
              'FOR EACH STATEMENT EXECUTE FUNCTION ${notifyFunction}()',
              current_schema(), t.relname);
          EXCEPTION WHEN duplicate_object THEN NULL;
          END;
        END LOOP;
      END $$`,
    )
    .execute(db);
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
 * The panel's LISTEN connection (its own pg Client, not one of the pool's).
 * The generation is disabled until it listens, and again from the moment it
 * loses its connection until it listens again: meanwhile every answer comes
 * from the database. Reconnects with a growing wait; `close` ends it.
 */
export class WriteListener {
  private client: Pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private waitMs = firstRetryMs;
  private closed = false;
  private wasListening = false;

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
    });
    this.client = client;
    client.on("notification", () => this.generation.bump());
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${writesChannel}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    // Closed or lost while connecting: that path has dealt with it.
    if (this.client !== client) return;
    this.waitMs = firstRetryMs;
    // Listening from here on: what was kept before (nothing, or answers from before the loss) is dropped.
    this.generation.enable();
    this.log.info(
      `listening to the database's writes${this.wasListening ? " again" : ""}; answers are kept in memory`,
    );
    this.wasListening = true;
  }

  private lost(client: Pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
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
    const client = this.client;
    this.client = undefined;
    this.generation.disable();
    await client?.end().catch(() => {});
  }
}
