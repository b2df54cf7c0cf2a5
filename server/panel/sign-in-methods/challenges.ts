import type { Db } from "../../db/database.ts";
import { tokenHash } from "../tokens.ts";

/** What a sign-in step waits on: who it is for (if anyone yet) and what it must check. */
export interface Challenge {
  userId: number | null;
  payload: Record<string, unknown>;
}

/**
 * Sign-in steps that wait on the browser (a WebAuthn challenge, an OIDC state): kept in the
 * database under the SHA-256 of their key, so that any panel sharing it may finish what another
 * began, and each is taken once: `take` deletes the row it answers, so a replay finds nothing.
 */
export class SignInChallenges {
  constructor(private readonly db: Db) {}

  async issue(key: string, purpose: string, challenge: Challenge, lifetimeMs: number): Promise<void> {
    const now = Date.now();
    // The expired are swept by the next issue: each lives minutes, and a sign-in issues one.
    await this.db.deleteFrom("sign_in_challenges").where("expires_at", "<", now).execute();
    await this.db
      .insertInto("sign_in_challenges")
      .values({
        key_hash: tokenHash(key),
        purpose,
        user_id: challenge.userId,
        payload: JSON.stringify(challenge.payload),
        expires_at: now + lifetimeMs,
      })
      .execute();
  }

  /** The challenge under this key and purpose, removed as it is read; undefined when none is live. */
  async take(key: string, purpose: string): Promise<Challenge | undefined> {
    const row = await this.db
      .deleteFrom("sign_in_challenges")
      .where("key_hash", "=", tokenHash(key))
      .where("purpose", "=", purpose)
      .returning(["user_id", "payload", "expires_at"])
      .executeTakeFirst();
    if (!row || Number(row.expires_at) <= Date.now()) return undefined;
    return { userId: row.user_id, payload: JSON.parse(row.payload) as Record<string, unknown> };
  }
}
