import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";

/** Recorded as run under the name "0007_sealed_node_secrets" (index.ts): never rename it. */
export const sealedNodeSecrets = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    // Node secrets are stored sealed (server/secrets/secret-box.ts), longer than 64 characters.
    // SQLite does not enforce varchar lengths; PostgreSQL does.
    if (dialect === "postgres")
      await db.schema
        .alterTable("nodes")
        .alterColumn("secret", (c) => c.setDataType("text"))
        .execute();
  },
});
