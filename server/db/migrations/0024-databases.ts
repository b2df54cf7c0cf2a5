import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0024_databases" (index.ts): never rename it. */
export const databases = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    // MySQL/MariaDB and PostgreSQL servers the panel makes databases on (panel/database-hosts.ts).
    await db.schema
      .createTable("database_hosts")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
      .addColumn("type", "varchar(16)", (c) => c.notNull())
      .addColumn("host", "varchar(255)", (c) => c.notNull())
      .addColumn("port", "integer", (c) => c.notNull())
      .addColumn("username", "varchar(100)", (c) => c.notNull())
      .addColumn("password", "text", (c) => c.notNull())
      .addColumn("nodes", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("max_databases", "integer")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    // A server's databases; the row is written before the host is asked (state 'creating').
    await db.schema
      .createTable("server_databases")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("server_id", "varchar(64)", (c) => c.notNull())
      .addColumn("host_id", "integer", (c) => c.notNull())
      .addColumn("name", "varchar(64)", (c) => c.notNull())
      .addColumn("username", "varchar(32)", (c) => c.notNull())
      .addColumn("password", "text", (c) => c.notNull())
      .addColumn("state", "varchar(16)", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("server_databases_host_name", ["host_id", "name"])
      .addUniqueConstraint("server_databases_host_user", ["host_id", "username"])
      .execute();
    await db.schema
      .createIndex("server_databases_server")
      .on("server_databases")
      .column("server_id")
      .execute();
  },
});
