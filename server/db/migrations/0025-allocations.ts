import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0025_allocations" (index.ts): never rename it. */
export const allocations = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    // A node's pool of addresses servers may listen on (panel/node-allocations.ts), and which
    // server holds each (panel/server-ports.ts).
    await db.schema
      .createTable("allocations")
      .addColumn("id", serialType(dialect), (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("node_id", "integer", (c) => c.notNull())
      .addColumn("ip", "varchar(64)", (c) => c.notNull())
      .addColumn("port", "integer", (c) => c.notNull())
      .addColumn("alias", "varchar(255)")
      .addColumn("server_id", "varchar(64)")
      // The template variable the allocation's port goes into; null for an extra one.
      .addColumn("variable", "varchar(100)")
      .addColumn("is_primary", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("allocations_node_ip_port", ["node_id", "ip", "port"])
      .execute();
    await db.schema
      .createIndex("allocations_node_port")
      .on("allocations")
      .columns(["node_id", "port"])
      .execute();
    await db.schema.createIndex("allocations_server").on("allocations").column("server_id").execute();
    // Free ones are looked up on every creation on a node with a pool.
    await db.schema.createIndex("servers_node_port").on("servers").columns(["node_id", "port"]).execute();
  },
});
