import type { Kysely, Migration } from "kysely";
import type { Database } from "../tables.ts";

/** Recorded as run under the name "0010_template_authors" (index.ts): never rename it. */
export const templateAuthors: Migration = {
  async up(db: Kysely<unknown>) {
    // Whether an administrator wrote a local template or added a repository: a non-administrator
    // creates servers only from those (servers.ts). Rows from before are nobody's yet (0),
    // but the community repository the panel added itself.
    for (const table of ["templates", "template_repos"])
      await db.schema
        .alterTable(table)
        .addColumn("by_admin", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
    await (db as Kysely<Database>)
      .updateTable("template_repos")
      .set({ by_admin: 1 })
      .where("name", "=", "community")
      .where("url", "=", "https://github.com/pufferpanel/templates")
      .execute();
  },
};
