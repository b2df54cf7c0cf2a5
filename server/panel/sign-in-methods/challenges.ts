import { randomBytes } from "node:crypto";
import type { Db } from "../../db/database.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import type { SecretBox } from "../../secrets/secret-box.ts";
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
  constructor(
    private readonly db: Db,
    /** Seals the challenges anyone may ask for (`sealed`); panels sharing a database share its key. */
    private readonly box: SecretBox,
  ) {}

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

  /**
   * A challenge that holds what it waits on itself, sealed under the panel's key: nothing is
   * stored when it is given, so those who may ask without signing in (a passkey sign-in) cannot
   * fill the table. `openSealed` reads it back; `markAnswered` records it when it was answered, so it
   * is still taken once. WebAuthn carries the sealed text's UTF-8 bytes, base64url-encoded: the key.
   */
  sealed(purpose: string, challenge: Challenge, lifetimeMs: number): string {
    const body = { p: purpose, u: challenge.userId, d: challenge.payload, e: Date.now() + lifetimeMs };
    // The random part makes each one new even when two are sealed in the same millisecond.
    return this.box.seal(JSON.stringify({ ...body, r: randomBytes(8).toString("hex") }));
  }

  /** A sealed challenge (its base64url key) of this purpose, still live; undefined for any other. */
  openSealed(key: string, purpose: string): (Challenge & { expiresAt: number }) | undefined {
    try {
      const body = JSON.parse(this.box.open(Buffer.from(key, "base64url").toString("utf8"))) as {
        p?: unknown;
        u?: unknown;
        d?: unknown;
        e?: unknown;
      };
      if (body.p !== purpose || typeof body.e !== "number" || body.e <= Date.now()) return undefined;
      const userId = typeof body.u === "number" ? body.u : null;
      return { userId, payload: (body.d ?? {}) as Record<string, unknown>, expiresAt: body.e };
    } catch {
      return undefined;
    }
  }

  /** Records that a sealed challenge was answered; false when it was already (a replay). */
  async markAnswered(key: string, purpose: string, expiresAt: number): Promise<boolean> {
    await this.db.deleteFrom("sign_in_challenges").where("expires_at", "<", Date.now()).execute();
    try {
      await this.db
        .insertInto("sign_in_challenges")
        .values({
          key_hash: tokenHash(key),
          purpose: `${purpose}:used`,
          user_id: null,
          payload: "{}",
          expires_at: expiresAt,
        })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
