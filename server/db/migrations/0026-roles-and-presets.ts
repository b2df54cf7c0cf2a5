import type { Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/** Recorded as run under the name "0026_roles_and_presets" (index.ts): never rename it. */
export const rolesAndPresets = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    // Presets administrators defined; the four built-in ones live in code (contract/scopes.ts).
    await db.schema
      .createTable("permission_presets")
      .addColumn("id", "varchar(64)", (c) => c.primaryKey())
      .addColumn("name", "varchar(100)", (c) => c.notNull())
      .addColumn("scopes", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    // Named sets of global scopes; a user holds their own global scopes and their roles'.
    await db.schema
      .createTable("roles")
      .addColumn("id", serial, (c) =>
        dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
      .addColumn("scopes", "text", (c) => c.notNull())
      .addColumn("require_2fa", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("user_roles")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("role_id", "integer", (c) => c.notNull().references("roles.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role_id"])
      .execute();
    await db.schema.createIndex("user_roles_role").on("user_roles").column("role_id").execute();
  },
});
