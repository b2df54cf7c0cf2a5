import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0032_oidc_trust_email" (index.ts): never rename it. */
export const oidcTrustEmail: Migration = {
  async up(db: Kysely<unknown>) {
    // Whether a provider's e-mail address counts as verified when its ID token says nothing of it
    // (no email_verified claim). Off: such an address makes no account and passes no domain rule.
    await db.schema
      .alterTable("oidc_providers")
      .addColumn("trust_unverified_email", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
