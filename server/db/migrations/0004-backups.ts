import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0004_backups" (index.ts): never rename it. */
export const backups = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    // The panel's list of a server's backups; the files and their progress live on the node.
    await db.schema
      .createTable("backups")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("server_id", "varchar(64)", (c) => c.notNull())
      .addColumn("name", "varchar(100)", (c) => c.notNull())
      .addColumn("file_name", "varchar(64)", (c) => c.notNull().unique())
      .addColumn("state", "varchar(16)", (c) => c.notNull())
      .addColumn("size", "bigint", (c) => c.notNull().defaultTo(0))
      .addColumn("error", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("backups_server").on("backups").column("server_id").execute();
  },
});
