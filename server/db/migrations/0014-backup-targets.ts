import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0014_backup_targets" (index.ts): never rename it. */
export const backupTargets: Migration = {
  async up(db: Kysely<unknown>) {
    // One row per node with an S3 target; the local node (no row in nodes) is 0, hence no reference.
    await db.schema
      .createTable("backup_targets")
      .addColumn("node_id", "integer", (c) => c.primaryKey())
      .addColumn("settings", "text", (c) => c.notNull())
      .addColumn("secret", "text", (c) => c.notNull())
      .execute();
  },
};
