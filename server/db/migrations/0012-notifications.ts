import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0012_notifications" (index.ts): never rename it. */
export const notifications = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    // Alerts (server/panel/notifications/): each user's channels, the VAPID key pair, the
    // claims that let one panel of several send each event once, and known sign-in devices.
    await db.schema
      .createTable("notification_channels")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("type", "varchar(16)", (c) => c.notNull())
      .addColumn("events", "text", (c) => c.notNull())
      .addColumn("servers", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("target", "text", (c) => c.notNull())
      .addColumn("secret", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("notification_channels_user")
      .on("notification_channels")
      .column("user_id")
      .execute();
    await db.schema
      .createTable("notification_keys")
      .addColumn("name", "varchar(32)", (c) => c.primaryKey())
      .addColumn("public_key", "text", (c) => c.notNull())
      .addColumn("private_key", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("notification_claims")
      .addColumn("key", "varchar(200)", (c) => c.primaryKey())
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("user_devices")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("device_hash", "varchar(64)", (c) => c.notNull())
      .addColumn("seen_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("user_devices_pk", ["user_id", "device_hash"])
      .execute();
  },
});
