import type { Db } from "../db/database.ts";
import { newToken, tokenHash } from "./tokens.ts";

export const sessionLifetimeMs = 60 * 60 * 1000;
export const otpPendingLifetimeMs = 5 * 60 * 1000;
/**
 * How long a session replaced by /auth/reauth stays valid. The reference leaves it valid until it
 * expires (an hour); revoking it at once logs out a page whose first calls were already on their
 * way with the old cookie. A minute covers those calls and keeps a leaked old token short-lived.
 */
export const rotatedSessionGraceMs = 60 * 1000;

/** "invite": a link that lets an invited user set their password (server users, reference §12.13). */
export type SessionKind = "session" | "otp" | "invite";

export interface SessionRecord {
  userId: number;
  clientId: string | null;
  kind: SessionKind;
  expiresAt: number;
  tokenHash: string;
}

/** Sessions just revoked: one by its hash, or all of a user's but one. */
export type RevokedSessions = { sessionHash: string } | { userId: number; exceptHash?: string };

/** Server-side sessions; the client holds the token, the database holds its hash. */
export class Sessions {
  private readonly revokedListeners: ((revoked: RevokedSessions) => void)[] = [];

  constructor(private readonly db: Db) {}

  /** Told of every revocation, after it is stored: open connections made with those sessions end with them. */
  onRevoked(listener: (revoked: RevokedSessions) => void): void {
    this.revokedListeners.push(listener);
  }

  private revoked(revoked: RevokedSessions): void {
    for (const listener of this.revokedListeners) listener(revoked);
  }

  async create(
    userId: number,
    kind: SessionKind,
    opts: { clientId?: string; lifetimeMs?: number } = {},
  ): Promise<{ token: string; expiresAt: number }> {
    const token = newToken();
    const now = Date.now();
    const expiresAt = now + (opts.lifetimeMs ?? (kind === "otp" ? otpPendingLifetimeMs : sessionLifetimeMs));
    await this.db
      .insertInto("sessions")
      .values({
        token_hash: tokenHash(token),
        user_id: userId,
        client_id: opts.clientId ?? null,
        kind,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return { token, expiresAt };
  }

  /** The live session behind a token, or undefined when unknown, expired or of another kind. */
  async find(token: string, kind: SessionKind): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom("sessions")
      .selectAll()
      .where("token_hash", "=", tokenHash(token))
      .where("kind", "=", kind)
      .where("expires_at", ">", Date.now())
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      userId: row.user_id,
      clientId: row.client_id,
      kind: row.kind as SessionKind,
      expiresAt: row.expires_at,
      tokenHash: row.token_hash,
    };
  }

  async revoke(token: string): Promise<void> {
    const hash = tokenHash(token);
    await this.db.deleteFrom("sessions").where("token_hash", "=", hash).execute();
    this.revoked({ sessionHash: hash });
  }

  /**
   * Ends a client's tokens beyond its `keep` newest. Each client_credentials
   * request issues a token; without a bound a script (or anyone holding a
   * client) could grow the sessions table by thousands of rows a second.
   */
  async keepNewestOfClient(userId: number, clientId: string, keep: number): Promise<void> {
    const older = await this.db
      .selectFrom("sessions")
      .select("token_hash")
      .where("user_id", "=", userId)
      .where("client_id", "=", clientId)
      .orderBy("created_at", "desc")
      .orderBy("token_hash")
      .offset(keep)
      .limit(1000)
      .execute();
    if (older.length === 0) return;
    const hashes = older.map((r) => r.token_hash);
    await this.db.deleteFrom("sessions").where("token_hash", "in", hashes).execute();
    for (const sessionHash of hashes) this.revoked({ sessionHash });
  }

  /** Lets a session live at most `graceMs` longer (never longer than it would have). */
  async expireWithin(hash: string, graceMs: number): Promise<void> {
    const until = Date.now() + graceMs;
    await this.db
      .updateTable("sessions")
      .set({ expires_at: until })
      .where("token_hash", "=", hash)
      .where("expires_at", ">", until)
      .execute();
  }

  /** Ends every session of a user, except the one given (the caller's own). */
  async revokeAllOf(userId: number, exceptHash?: string): Promise<void> {
    let q = this.db.deleteFrom("sessions").where("user_id", "=", userId);
    if (exceptHash) q = q.where("token_hash", "!=", exceptHash);
    await q.execute();
    this.revoked({ userId, exceptHash });
  }

  /** Which of these sessions still exist (another panel's sign-out deletes rows this one cannot hear). */
  async existing(hashes: string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("sessions")
      .select("token_hash")
      .where("token_hash", "in", hashes)
      .execute();
    return new Set(rows.map((r) => r.token_hash));
  }

  async purgeExpired(): Promise<void> {
    await this.db.deleteFrom("sessions").where("expires_at", "<=", Date.now()).execute();
  }
}
