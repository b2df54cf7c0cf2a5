import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0011_activity" (index.ts): never rename it. */
export const activity = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    // The activity log (tables.ts, ActivityTable); not given the write-notify trigger.
    await db.schema
      .createTable("activity")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("at", "bigint", (c) => c.notNull())
      .addColumn("actor_kind", "varchar(16)", (c) => c.notNull())
      .addColumn("user_id", "integer")
      .addColumn("actor_name", "varchar(255)", (c) => c.notNull().defaultTo(""))
      .addColumn("client_id", "varchar(64)")
      .addColumn("address", "varchar(64)", (c) => c.notNull().defaultTo(""))
      .addColumn("action", "varchar(64)", (c) => c.notNull())
      .addColumn("ok", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("server_id", "varchar(64)")
      .addColumn("subject", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("event_id", "varchar(100)", (c) => c.unique())
      .execute();
    // Newest first, whole or by user, server or action (the filters of GET /api/activity).
    await db.schema.createIndex("activity_at").on("activity").column("at").execute();
    await db.schema.createIndex("activity_user").on("activity").columns(["user_id", "at"]).execute();
    await db.schema.createIndex("activity_server").on("activity").columns(["server_id", "at"]).execute();
    await db.schema.createIndex("activity_action").on("activity").columns(["action", "at"]).execute();
  },
});
