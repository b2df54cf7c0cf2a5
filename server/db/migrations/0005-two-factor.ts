import type { Kysely, Migration } from "kysely";

/** Recorded as run under the name "0005_two_factor" (index.ts): never rename it. */
export const twoFactor: Migration = {
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
};
