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
 * Sign-in steps that wait on the browser (a WebAuthn challenge, an OIDC state). Anyone may start
 * one, so nothing is stored when it is given: the challenge holds what it waits on (its purpose,
 * account, payload and expiry) sealed under the panel's key, which every panel sharing the
 * database shares, so any of them may finish what another began. Each is taken once: once
 * answered it is recorded (under the SHA-256 of its key, until it would have expired), and a
 * replay finds it there.
 */
export class SignInChallenges {
  constructor(
    private readonly db: Db,
    /** Seals the challenges anyone may ask for (`sealed`); panels sharing a database share its key. */
    private readonly box: SecretBox,
  ) {}

  /**
   * A new challenge. The key is the sealed text's UTF-8 bytes in base64url: a WebAuthn
   * challenge's bytes, or an OIDC state.
   */
  sealed(purpose: string, challenge: Challenge, lifetimeMs: number): string {
    const body = { p: purpose, u: challenge.userId, d: challenge.payload, e: Date.now() + lifetimeMs };
    // The random part makes each one new even when two are sealed in the same millisecond.
    const sealed = this.box.seal(JSON.stringify({ ...body, r: randomBytes(8).toString("hex") }));
    return Buffer.from(sealed, "utf8").toString("base64url");
  }

  /** Whether a sealed challenge was answered already (markAnswered). */
  async wasAnswered(key: string, purpose: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("sign_in_challenges")
      .select("key_hash")
      .where("key_hash", "=", tokenHash(key))
      .where("purpose", "=", `${purpose}:used`)
      .executeTakeFirst();
    return row !== undefined;
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
