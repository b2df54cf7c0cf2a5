import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0001_accounts" (index.ts): never rename it. */
export const accounts = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    await db.schema
      .createTable("users")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("username", "varchar(100)", (c) => c.notNull().unique())
      .addColumn("email", "varchar(255)", (c) => c.notNull().unique())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("otp_secret", "text")
      .addColumn("otp_active", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("otp_last_step", "bigint", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("permissions")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("server_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
      .addColumn("scopes", "text", (c) => c.notNull().defaultTo(""))
      .addPrimaryKeyConstraint("permissions_pk", ["user_id", "server_id"])
      .execute();
    await db.schema.createIndex("permissions_server").on("permissions").column("server_id").execute();
    await db.schema
      .createTable("sessions")
      .addColumn("token_hash", "varchar(64)", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("client_id", "varchar(64)")
      .addColumn("kind", "varchar(16)", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
    await db.schema.createIndex("sessions_expires").on("sessions").column("expires_at").execute();
    await db.schema
      .createTable("oauth_clients")
      .addColumn("client_id", "varchar(64)", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("server_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
      .addColumn("name", "varchar(100)", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("secret_hash", "varchar(64)", (c) => c.notNull())
      .addColumn("scopes", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("oauth_clients_user").on("oauth_clients").column("user_id").execute();
    await db.schema
      .createTable("settings")
      .addColumn("key", "varchar(100)", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("user_settings")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("key", "varchar(100)", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("user_settings_pk", ["user_id", "key"])
      .execute();
  },
});
