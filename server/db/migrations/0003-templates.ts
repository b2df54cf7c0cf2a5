import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import type { Database } from "../tables.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0003_templates" (index.ts): never rename it. */
export const templates = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    // The local repository (id 0): templates stored in the database.
    await db.schema
      .createTable("templates")
      .addColumn("name", "varchar(100)", (c) => c.primaryKey())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    // Read-only repositories added by URL (git, or a tar.gz archive over HTTP).
    await db.schema
      .createTable("template_repos")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
      .addColumn("url", "varchar(1000)", (c) => c.notNull())
      .addColumn("branch", "varchar(200)", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    // The compatible panel's community templates, as a default the administrator may remove.
    await (db as Kysely<Database>)
      .insertInto("template_repos")
      .values({
        name: "community",
        url: "https://github.com/pufferpanel/templates",
        branch: "v3",
        created_at: Date.now(),
      })
      .execute();
  },
});
