import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  WebAuthnCredential,
} from "@simplewebauthn/server";
import type { PasskeyView } from "../../contract/api/passkeys.ts";
import type { Db } from "../../db/database.ts";
import { ApiError, errors } from "../../errors.ts";
import type { SignInChallenges } from "./challenges.ts";

/** Who the browser's passkey is for: the panel's host name (the RP ID) and its origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** How long a browser has to answer a challenge (the WebAuthn timeout given is the same). */
const challengeLifetimeMs = 5 * 60_000;
export const passkeysPerUserMax = 20;

const purposes = { register: "passkey-register", signIn: "passkey-sign-in" } as const;

const refused = (reason: string) =>
  new ApiError(400, "ErrPasskeyRefused", "the passkey was not accepted: ${reason}", { reason });

/** The challenge a WebAuthn response answers, read from its client data (checked again by the verifier). */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as {
      challenge?: unknown;
    };
    return typeof data.challenge === "string" ? data.challenge : "";
  } catch {
    return "";
  }
}

/**
 * Passkeys (WebAuthn, issue 39): each account registers several, names and removes them, and
 * signs in with one alone (a discoverable credential: the browser says whose it is) or uses one
 * as the second step after the password. Every challenge is the panel's own, taken once
 * (challenges.ts); the signature, origin, RP ID and counter are checked by @simplewebauthn/server,
 * which refuses a counter that did not grow: a cloned authenticator replaying an old count.
 * Authenticators that keep no counter (0 every time, as synced passkeys do) are let through, as
 * the specification allows.
 */
export class Passkeys {
  constructor(
    private readonly db: Db,
    private readonly challenges: SignInChallenges,
  ) {}

  async list(userId: number): Promise<PasskeyView[]> {
    const rows = await this.db
      .selectFrom("passkeys")
      .select(["id", "name", "created_at", "last_used_at"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: Number(r.created_at),
      lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
    }));
  }

  async count(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom("passkeys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** What the browser needs to make a passkey for this account; one it already holds is excluded. */
  async registrationOptions(
    user: { id: number; username: string; email: string },
    rp: RelyingParty,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const { generateRegistrationOptions } = await import("@simplewebauthn/server");
    const held = await this.credentials(user.id);
    return generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.username,
      userID: new TextEncoder().encode(`outpost-user-${user.id}`),
      timeout: challengeLifetimeMs,
      attestationType: "none",
      excludeCredentials: held.map((c) => ({ id: c.credential_id, transports: transports(c.transports) })),
      // Discoverable, so that it signs in alone, without the e-mail typed first.
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      // Sealed, not stored, as a sign-in's: asking again and again leaves nothing behind.
      challenge: new Uint8Array(
        Buffer.from(
          this.challenges.sealed(purposes.register, { userId: user.id, payload: {} }, challengeLifetimeMs),
          "base64url",
        ),
      ),
    });
  }

  async register(
    userId: number,
    input: { name: string; response: RegistrationResponseJSON },
    rp: RelyingParty,
  ): Promise<PasskeyView> {
    const name = input.name.trim();
    if (!name || name.length > 100) throw errors.fieldLength("name", 1, 100);
    if ((await this.count(userId)) >= passkeysPerUserMax)
      throw new ApiError(409, "ErrPasskeyLimit", "an account holds at most ${max} passkeys", {
        max: passkeysPerUserMax,
      });
    const challenge = challengeOf(input.response?.response?.clientDataJSON ?? "");
    const waiting = challenge ? this.challenges.openSealed(challenge, purposes.register) : undefined;
    // Taken by any try, right or wrong (the account is signed in: its tries are its own rows).
    if (
      !waiting ||
      waiting.userId !== userId ||
      !(await this.challenges.markAnswered(challenge, purposes.register, waiting.expiresAt))
    )
      throw refused("no registration of this account is waiting for it");
    const { verifyRegistrationResponse } = await import("@simplewebauthn/server");
    let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      info = await verifyRegistrationResponse({
        response: input.response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch (error) {
      throw refused((error as Error).message.slice(0, 200));
    }
    if (!info.verified) throw refused("its attestation did not verify");
    const { credential } = info.registrationInfo;
    const existing = await this.db
      .selectFrom("passkeys")
      .select("id")
      .where("credential_id", "=", credential.id)
      .executeTakeFirst();
    if (existing) throw new ApiError(409, "ErrPasskeyExists", "this passkey is already registered");
    const now = Date.now();
    const row = await this.db
      .insertInto("passkeys")
      .values({
        user_id: userId,
        name,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: (credential.transports ?? []).join(","),
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, name, createdAt: now, lastUsedAt: null };
  }

  async rename(userId: number, id: number, name: string): Promise<void> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100) throw errors.fieldLength("name", 1, 100);
    const result = await this.db
      .updateTable("passkeys")
      .set({ name: trimmed })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound();
  }

  async remove(userId: number, id: number): Promise<void> {
    const result = await this.db
      .deleteFrom("passkeys")
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound();
  }

  /**
   * A challenge to sign in with: any passkey of this panel (the browser offers the discoverable
   * ones it holds), or, for the second step of `forUser`, only that account's.
   */
  async signInOptions(rp: RelyingParty, forUser?: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const { generateAuthenticationOptions } = await import("@simplewebauthn/server");
    const allow =
      forUser === undefined
        ? undefined
        : (await this.credentials(forUser)).map((c) => ({
            id: c.credential_id,
            transports: transports(c.transports),
          }));
    // Anyone may ask for one: it is sealed, not stored, until a passkey answered it (challenges.ts).
    return generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: allow,
      userVerification: "preferred",
      timeout: challengeLifetimeMs,
      challenge: new Uint8Array(
        Buffer.from(
          this.challenges.sealed(
            purposes.signIn,
            { userId: forUser ?? null, payload: {} },
            challengeLifetimeMs,
          ),
          "base64url",
        ),
      ),
    });
  }

  /** Whose passkey signed, without checking anything: for the throttle, before the check. */
  async ownerOf(response: AuthenticationResponseJSON): Promise<number | undefined> {
    if (typeof response?.id !== "string") return undefined;
    const row = await this.db
      .selectFrom("passkeys")
      .select("user_id")
      .where("credential_id", "=", response.id)
      .executeTakeFirst();
    return row?.user_id;
  }

  /**
   * The account a signed challenge signs in to, its counter moved on; undefined for every
   * refusal (unknown passkey, a challenge not ours or already used, a bad signature, a counter
   * that did not grow, another account's passkey at its second step).
   */
  async verifySignIn(
    response: AuthenticationResponseJSON,
    rp: RelyingParty,
    forUser?: number,
  ): Promise<number | undefined> {
    const challenge = challengeOf(response?.response?.clientDataJSON ?? "");
    const waiting = challenge ? this.challenges.openSealed(challenge, purposes.signIn) : undefined;
    if (!waiting || (waiting.userId ?? undefined) !== forUser) return undefined;
    const row = await this.db
      .selectFrom("passkeys")
      .selectAll()
      .where("credential_id", "=", String(response.id))
      .executeTakeFirst();
    if (!row || (forUser !== undefined && row.user_id !== forUser)) return undefined;
    const { verifyAuthenticationResponse } = await import("@simplewebauthn/server");
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
        credential: {
          id: row.credential_id,
          publicKey: Buffer.from(row.public_key, "base64url"),
          counter: Number(row.counter),
          transports: transports(row.transports),
        },
      });
      if (!result.verified) return undefined;
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      // A bad signature, origin or RP ID, or a counter that did not grow (a cloned authenticator).
      return undefined;
    }
    // Answered by a passkey of the panel: only now is it recorded, once.
    if (!(await this.challenges.markAnswered(challenge, purposes.signIn, waiting.expiresAt)))
      return undefined;
    // Only forward: two panels taking the same count at once cannot move it back.
    const moved = await this.db
      .updateTable("passkeys")
      .set({ counter: newCounter, last_used_at: Date.now() })
      .where("id", "=", row.id)
      .where((eb) => eb.or([eb("counter", "<", newCounter), eb("counter", "=", 0)]))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return undefined;
    return row.user_id;
  }

  private credentials(userId: number) {
    return this.db
      .selectFrom("passkeys")
      .select(["credential_id", "transports"])
      .where("user_id", "=", userId)
      .execute();
  }
}

const notFound = () => new ApiError(404, "ErrPasskeyNotFound", "no such passkey on your account");

const transports = (joined: string) =>
  joined ? (joined.split(",") as WebAuthnCredential["transports"]) : undefined;
