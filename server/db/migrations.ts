import type { Kysely, Migration, MigrationProvider } from "kysely";
import type { Dialect } from "./database.ts";
import type { Database } from "./tables.ts";
import { createNotifyFunction, notifyOnEveryTable } from "./write-notifications.ts";

/**
 * One set of migrations for SQLite and PostgreSQL. Only the auto-increment
 * column type differs between them. Never edit a migration that has shipped:
 * add a new one.
 */
export function migrations(dialect: Dialect): MigrationProvider {
  const serial = dialect === "postgres" ? "serial" : "integer";
  const list: Record<string, Migration> = {
    "0001_accounts": {
      async up(db: Kysely<unknown>) {
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
    },
    "0002_nodes_and_servers": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("nodes")
          .addColumn("id", serial, (c) =>
            dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn("name", "varchar(100)", (c) => c.notNull().unique())
          .addColumn("public_host", "varchar(253)", (c) => c.notNull())
          .addColumn("public_port", "integer", (c) => c.notNull())
          .addColumn("private_host", "varchar(253)", (c) => c.notNull())
          .addColumn("private_port", "integer", (c) => c.notNull())
          .addColumn("sftp_port", "integer", (c) => c.notNull())
          .addColumn("secret", "varchar(64)", (c) => c.notNull())
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .execute();
        // Servers live on nodes; node_id 0 is the panel's local node (no row in nodes).
        await db.schema
          .createTable("servers")
          .addColumn("id", "varchar(64)", (c) => c.primaryKey())
          .addColumn("name", "varchar(100)", (c) => c.notNull())
          .addColumn("node_id", "integer", (c) => c.notNull())
          .addColumn("ip", "varchar(253)", (c) => c.notNull().defaultTo(""))
          .addColumn("port", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("type", "varchar(100)", (c) => c.notNull().defaultTo(""))
          .addColumn("icon", "varchar(100)", (c) => c.notNull().defaultTo(""))
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("servers_node").on("servers").column("node_id").execute();
        await db.schema.createIndex("servers_name").on("servers").column("name").execute();
      },
    },
    "0003_templates": {
      async up(db: Kysely<unknown>) {
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
    },
    "0004_backups": {
      async up(db: Kysely<unknown>) {
        // The panel's list of a server's backups; the files and their progress live on the node.
        await db.schema
          .createTable("backups")
          .addColumn("id", serial, (c) =>
            dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn("server_id", "varchar(64)", (c) => c.notNull())
          .addColumn("name", "varchar(100)", (c) => c.notNull())
          .addColumn("file_name", "varchar(64)", (c) => c.notNull().unique())
          .addColumn("state", "varchar(16)", (c) => c.notNull())
          .addColumn("size", "bigint", (c) => c.notNull().defaultTo(0))
          .addColumn("error", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("backups_server").on("backups").column("server_id").execute();
      },
    },
    "0005_two_factor": {
      async up(db: Kysely<unknown>) {
        // A secret being enrolled waits here until a code confirms it, so starting a new
        // enrolment never switches off the two-factor sign-in already in place.
        await db.schema.alterTable("users").addColumn("otp_pending_secret", "text").execute();
        // Recovery codes, stored as their SHA-256; each row is deleted when its code is used.
        await db.schema
          .createTable("otp_recovery_codes")
          .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
          .addColumn("code_hash", "varchar(64)", (c) => c.notNull())
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .addPrimaryKeyConstraint("otp_recovery_codes_pk", ["user_id", "code_hash"])
          .execute();
      },
    },
    "0006_servers_name_id": {
      async up(db: Kysely<unknown>) {
        // Lists sort by name, then id (names may repeat): with both in one index a page is read
        // in order and stops after its rows, with no sort of each group of equal names.
        await db.schema.createIndex("servers_name_id").on("servers").columns(["name", "id"]).execute();
        await db.schema.dropIndex("servers_name").execute();
      },
    },
    "0007_sealed_node_secrets": {
      async up(db: Kysely<unknown>) {
        // Node secrets are stored sealed (server/secrets/secret-box.ts), longer than 64 characters.
        // SQLite does not enforce varchar lengths; PostgreSQL does.
        if (dialect === "postgres")
          await db.schema
            .alterTable("nodes")
            .alterColumn("secret", (c) => c.setDataType("text"))
            .execute();
      },
    },
    "0008_server_creations": {
      async up(db: Kysely<unknown>) {
        // Creations in progress (tables.ts, ServerCreationTable): what a crash left is reconciled.
        await db.schema
          .createTable("server_creations")
          .addColumn("id", "varchar(64)", (c) => c.primaryKey())
          .addColumn("node_id", "integer", (c) => c.notNull())
          .addColumn("started_at", "bigint", (c) => c.notNull())
          .execute();
      },
    },
    "0009_write_notifications": {
      async up(db: Kysely<unknown>) {
        // PostgreSQL: every commit that wrote to a table notifies every panel sharing the
        // database (write-notifications.ts). migrate() gives tables added later the trigger too.
        if (dialect === "postgres") {
          await createNotifyFunction(db);
          await notifyOnEveryTable(db);
        }
      },
    },
    "0010_template_authors": {
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
    },
    "0014_backup_targets": {
      async up(db: Kysely<unknown>) {
        // One row per node with an S3 target; the local node (no row in nodes) is 0, hence no reference.
        await db.schema
          .createTable("backup_targets")
          .addColumn("node_id", "integer", (c) => c.primaryKey())
          .addColumn("settings", "text", (c) => c.notNull())
          .addColumn("secret", "text", (c) => c.notNull())
          .execute();
      },
    },
    "0011_activity": {
      async up(db: Kysely<unknown>) {
        // The activity log (tables.ts, ActivityTable); not given the write-notify trigger.
        await db.schema
          .createTable("activity")
          .addColumn("id", serial, (c) =>
            dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn("at", "bigint", (c) => c.notNull())
          .addColumn("actor_kind", "varchar(16)", (c) => c.notNull())
          .addColumn("user_id", "integer")
          .addColumn("actor_name", "varchar(255)", (c) => c.notNull().defaultTo(""))
          .addColumn("client_id", "varchar(64)")
          .addColumn("address", "varchar(64)", (c) => c.notNull().defaultTo(""))
          .addColumn("action", "varchar(64)", (c) => c.notNull())
          .addColumn("ok", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("server_id", "varchar(64)")
          .addColumn("subject", "text", (c) => c.notNull().defaultTo(""))
          .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
          .addColumn("event_id", "varchar(100)", (c) => c.unique())
          .execute();
        // Newest first, whole or by user, server or action (the filters of GET /api/activity).
        await db.schema.createIndex("activity_at").on("activity").column("at").execute();
        await db.schema.createIndex("activity_user").on("activity").columns(["user_id", "at"]).execute();
        await db.schema.createIndex("activity_server").on("activity").columns(["server_id", "at"]).execute();
        await db.schema.createIndex("activity_action").on("activity").columns(["action", "at"]).execute();
      },
    },
    "0012_notifications": {
      async up(db: Kysely<unknown>) {
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
    },
    "0015_server_transfers": {
      async up(db: Kysely<unknown>) {
        // Servers being moved between nodes (tables.ts, ServerTransferTable).
        await db.schema
          .createTable("server_transfers")
          .addColumn("server_id", "varchar(64)", (c) => c.primaryKey())
          .addColumn("from_node", "integer", (c) => c.notNull())
          .addColumn("to_node", "integer", (c) => c.notNull())
          .addColumn("started_at", "bigint", (c) => c.notNull())
          .execute();
      },
    },
    "0013_shared_limits": {
      async up(db: Kysely<unknown>) {
        // What limits or schedules, shared by every panel on the database (server/panel/shared-state.ts).
        // Times of counted events (failed sign-ins, mailed invitations), each kept until expires_at.
        await db.schema
          .createTable("shared_events")
          .addColumn("key", "varchar(600)", (c) => c.notNull())
          .addColumn("at", "bigint", (c) => c.notNull())
          .addColumn("expires_at", "bigint", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("shared_events_key").on("shared_events").columns(["key", "at"]).execute();
        await db.schema
          .createIndex("shared_events_expires")
          .on("shared_events")
          .column("expires_at")
          .execute();
        // Each running panel, alive while it renews alive_until.
        await db.schema
          .createTable("shared_panels")
          .addColumn("id", "varchar(64)", (c) => c.primaryKey())
          .addColumn("alive_until", "bigint", (c) => c.notNull())
          .execute();
        // Each open console socket, live socket and SFTP session, held by a panel: they count while it lives.
        await db.schema
          .createTable("shared_connections")
          .addColumn("id", "varchar(64)", (c) => c.primaryKey())
          .addColumn("panel_id", "varchar(64)", (c) => c.notNull())
          .addColumn("user_id", "integer", (c) => c.notNull())
          .addColumn("session_hash", "varchar(128)", (c) => c.notNull())
          .addColumn("address", "varchar(100)", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("shared_connections_panel")
          .on("shared_connections")
          .column("panel_id")
          .execute();
        // When each background job may run next, whichever panel claims it.
        await db.schema
          .createTable("shared_jobs")
          .addColumn("name", "varchar(100)", (c) => c.primaryKey())
          .addColumn("next_at", "bigint", (c) => c.notNull())
          .execute();
        // A creation's claim names its panel: another live panel's claim is not a crash's leftover.
        await db.schema
          .alterTable("server_creations")
          .addColumn("panel_id", "varchar(64)", (c) => c.notNull().defaultTo(""))
          .execute();
      },
    },
  };
  return { getMigrations: async () => list };
}
