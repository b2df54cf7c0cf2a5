import type { ColumnDefinitionBuilder, Kysely, Migration } from "kysely";
import type { Dialect } from "../database.ts";
import { serialType } from "./serial.ts";

/**
 * Recorded as run under the name "0027_sign_in_methods" (index.ts): never rename it. SSH keys
 * for SFTP, passkeys, OpenID Connect providers and the links of accounts to them, and the
 * short-lived challenges their sign-ins wait on (issue 39).
 */
export const signInMethods = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const serial = serialType(dialect);
    const id = (c: ColumnDefinitionBuilder) =>
      dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement();
    // Public keys a user signs in to SFTP with (panel/ssh-keys.ts), found by their SHA-256 fingerprint.
    await db.schema
      .createTable("ssh_keys")
      .addColumn("id", serial, id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("name", "varchar(100)", (c) => c.notNull())
      .addColumn("algorithm", "varchar(64)", (c) => c.notNull())
      .addColumn("bits", "integer", (c) => c.notNull())
      .addColumn("fingerprint", "varchar(64)", (c) => c.notNull())
      .addColumn("public_key", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("last_used_at", "bigint")
      .addUniqueConstraint("ssh_keys_user_fingerprint", ["user_id", "fingerprint"])
      .execute();
    // WebAuthn credentials (panel/passkeys.ts); the counter refuses a cloned authenticator.
    await db.schema
      .createTable("passkeys")
      .addColumn("id", serial, id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("name", "varchar(100)", (c) => c.notNull())
      .addColumn("credential_id", "varchar(1024)", (c) => c.notNull().unique())
      .addColumn("public_key", "text", (c) => c.notNull())
      .addColumn("counter", "bigint", (c) => c.notNull())
      .addColumn("transports", "varchar(255)", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("last_used_at", "bigint")
      .execute();
    await db.schema.createIndex("passkeys_user").on("passkeys").column("user_id").execute();
    // OpenID Connect providers an administrator added (panel/oidc/providers.ts); the secret sealed.
    await db.schema
      .createTable("oidc_providers")
      .addColumn("id", serial, id)
      .addColumn("name", "varchar(100)", (c) => c.notNull())
      .addColumn("issuer", "varchar(1024)", (c) => c.notNull())
      .addColumn("client_id", "varchar(255)", (c) => c.notNull())
      .addColumn("client_secret", "text", (c) => c.notNull())
      .addColumn("scopes", "varchar(1024)", (c) => c.notNull())
      .addColumn("create_accounts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("allowed_domains", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("role_claim", "varchar(255)")
      .addColumn("role_map", "text")
      .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    // Which account a provider's subject signs in to; one link per account and provider.
    await db.schema
      .createTable("oidc_links")
      .addColumn("id", serial, id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("provider_id", "integer", (c) =>
        c.notNull().references("oidc_providers.id").onDelete("cascade"),
      )
      .addColumn("subject", "varchar(255)", (c) => c.notNull())
      .addColumn("email", "varchar(255)", (c) => c.notNull().defaultTo(""))
      // The role ids the provider's role claim mapped to at the last sign-in (see applyRoleClaims).
      .addColumn("mapped_roles", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("last_used_at", "bigint")
      .addUniqueConstraint("oidc_links_subject", ["provider_id", "subject"])
      .addUniqueConstraint("oidc_links_user", ["provider_id", "user_id"])
      .execute();
    // A sign-in waiting on the browser: a WebAuthn challenge, an OIDC state, nonce and PKCE
    // verifier. Kept in the database so that any panel sharing it may finish what another began.
    await db.schema
      .createTable("sign_in_challenges")
      .addColumn("key_hash", "varchar(64)", (c) => c.primaryKey())
      .addColumn("purpose", "varchar(32)", (c) => c.notNull())
      .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
  },
});
