import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { createNotifyFunction, notifyOnEveryTable } from "../write-notifications.ts";

/** Recorded as run under the name "0009_write_notifications" (index.ts): never rename it. */
export const writeNotifications = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    // PostgreSQL: every commit that wrote to a table notifies every panel sharing the
    // database (write-notifications.ts). migrate() gives tables added later the trigger too.
    if (dialect === "postgres") {
      await createNotifyFunction(db);
      await notifyOnEveryTable(db);
    }
  },
});
