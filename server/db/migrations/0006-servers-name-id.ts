import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0006_servers_name_id" (index.ts): never rename it. */
export const serversNameId: Migration = {
  async up(db: Kysely<unknown>) {
    // Lists sort by name, then id (names may repeat): with both in one index a page is read
    // in order and stops after its rows, with no sort of each group of equal names.
    await db.schema.createIndex("servers_name_id").on("servers").columns(["name", "id"]).execute();
    await db.schema.dropIndex("servers_name").execute();
  },
};
