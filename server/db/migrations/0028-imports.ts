import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0028_imports" (index.ts): never rename it. */
export const imports: Migration = {
  async up(db: Kysely<unknown>) {
    // What `outpost import` brought from another panel (tables.ts, ImportedTable): a second run
    // finds each source row here and leaves what it made alone.
    await db.schema
      .createTable("imported")
      .addColumn("source", "varchar(255)", (c) => c.notNull())
      .addColumn("kind", "varchar(32)", (c) => c.notNull())
      .addColumn("source_id", "varchar(64)", (c) => c.notNull())
      .addColumn("our_id", "varchar(255)", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("imported_pk", ["source", "kind", "source_id"])
      .execute();
  },
};
