import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0016_server_hosting_limits" (index.ts): never rename it. */
export const serverHostingLimits: Migration = {
  async up(db: Kysely<unknown>) {
    // How many port allocations beyond its primary, and how many databases, a server may hold
    // (panel/server-limits.ts). Both 0 until an administrator raises them.
    for (const column of ["allocation_limit", "database_limit"])
      await db.schema
        .alterTable("servers")
        .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
        .execute();
  },
};
