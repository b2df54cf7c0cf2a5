import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0015_server_transfers" (index.ts): never rename it. */
export const serverTransfers: Migration = {
  async up(db: Kysely<unknown>) {
    // Servers being moved between nodes (tables.ts, ServerTransferTable).
    await db.schema
      .createTable("server_transfers")
      .addColumn("server_id", "varchar(64)", (c) => c.primaryKey())
      .addColumn("from_node", "integer", (c) => c.notNull())
      .addColumn("to_node", "integer", (c) => c.notNull())
      .addColumn("started_at", "bigint", (c) => c.notNull())
      .execute();
  },
};
