import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0002_nodes_and_servers" (index.ts): never rename it. */
export const nodesAndServers = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    await db.schema
      .createTable("nodes")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
      .addColumn("public_host", "varchar(253)", (c) => c.notNull())
      .addColumn("public_port", "integer", (c) => c.notNull())
      .addColumn("private_host", "varchar(253)", (c) => c.notNull())
      .addColumn("private_port", "integer", (c) => c.notNull())
      .addColumn("sftp_port", "integer", (c) => c.notNull())
      .addColumn("secret", "varchar(64)", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    // Servers live on nodes; node_id 0 is the panel's local node (no row in nodes).
    await db.schema
      .createTable("servers")
      .addColumn("id", "varchar(64)", (c) => c.primaryKey())
      .addColumn("name", "varchar(100)", (c) => c.notNull())
      .addColumn("node_id", "integer", (c) => c.notNull())
      .addColumn("ip", "varchar(253)", (c) => c.notNull().defaultTo(""))
      .addColumn("port", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("type", "varchar(100)", (c) => c.notNull().defaultTo(""))
      .addColumn("icon", "varchar(100)", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("servers_node").on("servers").column("node_id").execute();
    await db.schema.createIndex("servers_name").on("servers").column("name").execute();
  },
});
