import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0013_shared_limits" (index.ts): never rename it. */
export const sharedLimits: Migration = {
  async up(db: Kysely<unknown>) {
    // What limits or schedules, shared by every panel on the database (server/panel/shared-state.ts).
    // Times of counted events (failed sign-ins, mailed invitations), each kept until expires_at.
    await db.schema
      .createTable("shared_events")
      .addColumn("key", "varchar(600)", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("shared_events_key").on("shared_events").columns(["key", "at"]).execute();
    await db.schema.createIndex("shared_events_expires").on("shared_events").column("expires_at").execute();
    // Each running panel, alive while it renews alive_until.
    await db.schema
      .createTable("shared_panels")
      .addColumn("id", "varchar(64)", (c) => c.primaryKey())
      .addColumn("alive_until", "bigint", (c) => c.notNull())
      .execute();
    // Each open console socket, live socket and SFTP session, held by a panel: they count while it lives.
    await db.schema
      .createTable("shared_connections")
      .addColumn("id", "varchar(64)", (c) => c.primaryKey())
      .addColumn("panel_id", "varchar(64)", (c) => c.notNull())
      .addColumn("user_id", "integer", (c) => c.notNull())
      .addColumn("session_hash", "varchar(128)", (c) => c.notNull())
      .addColumn("address", "varchar(100)", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("shared_connections_panel")
      .on("shared_connections")
      .column("panel_id")
      .execute();
    // When each background job may run next, whichever panel claims it.
    await db.schema
      .createTable("shared_jobs")
      .addColumn("name", "varchar(100)", (c) => c.primaryKey())
      .addColumn("next_at", "bigint", (c) => c.notNull())
      .execute();
    // A creation's claim names its panel: another live panel's claim is not a crash's leftover.
    await db.schema
      .alterTable("server_creations")
      .addColumn("panel_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
      .execute();
  },
};
