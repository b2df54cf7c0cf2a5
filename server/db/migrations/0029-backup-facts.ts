import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0029_backup_facts" (index.ts): never rename it. */
export const backupFacts: Migration = {
  async up(db: Kysely<unknown>) {
    // What the node learnt of each backup as it wrote it (issue 38): taken while the server ran
    // without hooks, the archive's SHA-256, how many files the exclusions left out; then whether
    // it is pinned (never pruned) and its last verification (0: never verified).
    const columns: [string, "integer" | "text" | "bigint", number | string][] = [
      ["while_running", "integer", 0],
      ["sha256", "text", ""],
      ["left_out", "integer", 0],
      ["pinned", "integer", 0],
      ["verified_at", "bigint", 0],
      ["verified_ok", "integer", 0],
      ["verify_reason", "text", ""],
    ];
    for (const [column, type, fallback] of columns)
      await db.schema
        .alterTable("backups")
        .addColumn(column, type, (c) => c.notNull().defaultTo(fallback))
        .execute();
  },
};
