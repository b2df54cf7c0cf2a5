import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0008_server_creations" (index.ts): never rename it. */
export const serverCreations: Migration = {
  async up(db: Kysely<unknown>) {
    // Creations in progress (tables.ts, ServerCreationTable): what a crash left is reconciled.
    await db.schema
      .createTable("server_creations")
      .addColumn("id", "varchar(64)", (c) => c.primaryKey())
      .addColumn("node_id", "integer", (c) => c.notNull())
      .addColumn("started_at", "bigint", (c) => c.notNull())
      .execute();
  },
};
