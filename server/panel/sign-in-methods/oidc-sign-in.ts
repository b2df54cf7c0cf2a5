import { randomBytes } from "node:crypto";
import type { OidcLinkView } from "../../contract/api/oidc.ts";
import type { Db } from "../../db/database.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { ApiError } from "../../errors.ts";
import type { Accounts, User } from "../accounts.ts";
import type { LoginThrottle } from "../login-throttle.ts";
import type { Roles } from "../roles.ts";
import { registeredUserScopes } from "../scopes.ts";
import type { IssuedSession, SignIn } from "../sign-in.ts";
import type { SignInChallenges } from "./challenges.ts";
import type { OidcProvider, OidcProviders } from "./oidc-providers.ts";

/** How long the provider's sign-in page may take before coming back. */
const stateLifetimeMs = 10 * 60_000;
const purpose = "oidc";

/** Claims of a verified ID token, as far as sign-in reads them. */
export type OidcClaims = Record<string, unknown> & { sub: string };

export type OidcResult = { kind: "session"; session: IssuedSession } | { kind: "linked"; userId: number };

const refused = (code: string, msg: string, metadata?: Record<string, string>) =>
  new ApiError(403, code, msg, metadata);

/**
 * Whether the ID token's address is one the provider checked: `email_verified` true (some send the
 * string "true"). Without the claim, only where the administrator said the provider's addresses
 * are all checked (trustUnverifiedEmail, e.g. a company directory that omits it); an explicit
 * false is never trusted.
 */
function emailVerified(provider: OidcProvider, claims: OidcClaims): boolean {
  const said = claims.email_verified;
  if (said === true || said === "true") return true;
  return said === undefined && provider.trustUnverifiedEmail;
}

/**
 * Single sign-on with OpenID Connect (issue 39): the authorization code flow with PKCE and a
 * nonce of the panel's own, sealed with the provider and redirect into the state (challenges.ts:
 * nothing is stored until it is answered, and any panel may take the browser back), which is
 * bound to the browser by a cookie holding it. openid-client checks the state, the ID
 * token's signature against the provider's keys, its issuer, audience, expiry and nonce.
 *
 * An account signs in through the link of the provider's subject to it: made by the owner from
 * their account page, or at a first sign-in when the provider creates accounts. An existing account
 * is never taken over because a provider says it has the same e-mail address. Allowed domains are
 * checked at every sign-in and link. Failures count in the sign-in throttle, per address.
 */
export class OidcSignIn {
  constructor(
    private readonly db: Db,
    private readonly providers: OidcProviders,
    private readonly challenges: SignInChallenges,
    private readonly accounts: Accounts,
    private readonly throttle: LoginThrottle,
    private readonly signIn: SignIn,
    private readonly roles: Pick<Roles, "list" | "rolesOf" | "setUserRoles">,
  ) {}

  /** Where the browser goes to sign in (or, with `linkFor`, to link that account), and the state to bind. */
  async begin(
    providerId: number,
    redirectUri: string,
    linkFor?: number,
  ): Promise<{ url: string; state: string }> {
    const provider = await this.providers.get(providerId);
    if (!provider.enabled) throw providerDisabled();
    const client = await import("openid-client");
    const config = await this.discover(provider);
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    // Anyone may start a sign-in: the state holds what it waits on sealed, so nothing is stored
    // until the provider's answer was taken (challenges.ts). The verifier stays unreadable in it.
    const state = this.challenges.sealed(
      purpose,
      { userId: linkFor ?? null, payload: { providerId, verifier, nonce, redirectUri } },
      stateLifetimeMs,
    );
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: provider.scopes.join(" "),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /** The provider came back to `callbackUrl` in the browser holding `boundState`. */
  async finish(
    providerId: number,
    callbackUrl: URL,
    boundState: string | undefined,
    address: string,
  ): Promise<OidcResult> {
    const account = `oidc:${providerId}`;
    await this.throttle.refuseIfThrottled(account, address);
    try {
      return await this.complete(providerId, callbackUrl, boundState);
    } catch (error) {
      await this.throttle.recordFailure(account, address);
      throw error;
    }
  }

  async links(userId: number): Promise<OidcLinkView[]> {
    const rows = await this.db
      .selectFrom("oidc_links")
      .innerJoin("oidc_providers", "oidc_providers.id", "oidc_links.provider_id")
      .select([
        "oidc_links.id",
        "oidc_links.provider_id",
        "oidc_providers.name",
        "oidc_links.email",
        "oidc_links.created_at",
        "oidc_links.last_used_at",
      ])
      .where("oidc_links.user_id", "=", userId)
      .orderBy("oidc_links.id")
      .execute();
    return rows.map((r) => ({
      id: r.id,
      providerId: r.provider_id,
      providerName: r.name,
      email: r.email,
      createdAt: Number(r.created_at),
      lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
    }));
  }

  async unlink(userId: number, linkId: number): Promise<void> {
    const result = await this.db
      .deleteFrom("oidc_links")
      .where("user_id", "=", userId)
      .where("id", "=", linkId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0)
      throw new ApiError(404, "ErrOidcLinkNotFound", "no such link to a provider on your account");
  }

  private async complete(
    providerId: number,
    callbackUrl: URL,
    boundState: string | undefined,
  ): Promise<OidcResult> {
    const state = callbackUrl.searchParams.get("state") ?? "";
    // The state must be the one this browser was sent off with, and still waiting.
    if (!state || state !== boundState)
      throw refused("ErrOidcState", "the sign-in did not start in this browser");
    const waiting = this.challenges.openSealed(state, purpose);
    const payload = waiting?.payload as
      | { providerId: number; verifier: string; nonce: string; redirectUri: string }
      | undefined;
    if (
      !waiting ||
      !payload ||
      payload.providerId !== providerId ||
      (await this.challenges.wasAnswered(state, purpose))
    )
      throw refused("ErrOidcState", "the sign-in did not start in this browser");
    const provider = await this.providers.get(providerId);
    if (!provider.enabled) throw providerDisabled();
    const client = await import("openid-client");
    const config = await this.discover(provider);
    // The provider sends the browser back to the address given; checks are made against it.
    const returned = new URL(payload.redirectUri);
    returned.search = callbackUrl.search;
    let claims: OidcClaims | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(config, returned, {
        pkceCodeVerifier: payload.verifier,
        expectedState: state,
        expectedNonce: payload.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims() as OidcClaims | undefined;
      // Providers may keep the e-mail out of the ID token and answer it at userinfo (OIDC §5.4).
      if (claims?.sub && typeof claims.email !== "string" && tokens.access_token)
        claims = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    } catch (error) {
      throw refused("ErrOidcRefused", "the provider's answer was refused: ${reason}", {
        reason: (error as Error).message.slice(0, 200),
      });
    }
    if (!claims?.sub)
      throw refused("ErrOidcRefused", "the provider's answer was refused: ${reason}", {
        reason: "no subject",
      });
    // The state is taken once: a second answer with it (a replay, or one racing it) is refused.
    if (!(await this.challenges.markAnswered(state, purpose, waiting.expiresAt)))
      throw refused("ErrOidcState", "the sign-in did not start in this browser");
    const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
    this.checkDomain(provider, email, emailVerified(provider, claims));
    if (waiting.userId !== null) {
      // The account that began the link may have been deleted since (its state is not stored).
      if (!(await this.accounts.byId(waiting.userId)))
        throw refused("ErrOidcState", "the sign-in did not start in this browser");
      await this.link(waiting.userId, provider, claims.sub, email);
      return { kind: "linked", userId: waiting.userId };
    }
    const user = await this.accountFor(provider, claims, email);
    await this.applyRoleClaims(user.id, claims, provider);
    return { kind: "session", session: await this.signIn.sessionFor(user) };
  }

  /** The linked account, or one made now when the provider creates accounts. */
  private async accountFor(provider: OidcProvider, claims: OidcClaims, email: string): Promise<User> {
    const linked = await this.db
      .selectFrom("oidc_links")
      .select(["id", "user_id"])
      .where("provider_id", "=", provider.id)
      .where("subject", "=", claims.sub)
      .executeTakeFirst();
    if (linked) {
      const user = await this.accounts.byId(linked.user_id);
      if (user) {
        await this.db
          .updateTable("oidc_links")
          .set({ last_used_at: Date.now(), email })
          .where("id", "=", linked.id)
          .execute();
        return user;
      }
    }
    if (!provider.createAccounts)
      throw refused("ErrOidcNoAccount", "no account is linked to this ${provider} sign-in", {
        provider: provider.name,
      });
    if (!email || !emailVerified(provider, claims))
      throw refused("ErrOidcEmailUnverified", "${provider} gave no verified e-mail address", {
        provider: provider.name,
      });
    if (await this.accounts.byEmail(email))
      throw refused(
        "ErrOidcEmailTaken",
        "an account with ${email} exists: sign in to it and link ${provider} there",
        {
          email,
          provider: provider.name,
        },
      );
    const user = await this.accounts.create({
      username: await this.freeUsername(claims, email),
      email,
      // No one knows it: the account signs in through its provider (or resets it by e-mail).
      password: randomBytes(32).toString("base64url"),
      scopes: [...registeredUserScopes],
    });
    await this.link(user.id, provider, claims.sub, email);
    return user;
  }

  private async link(userId: number, provider: OidcProvider, subject: string, email: string): Promise<void> {
    try {
      await this.db
        .insertInto("oidc_links")
        .values({ user_id: userId, provider_id: provider.id, subject, email, created_at: Date.now() })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError(409, "ErrOidcLinked", "this ${provider} sign-in is already linked to an account", {
          provider: provider.name,
        });
      throw error;
    }
  }

  /**
   * The provider's role claim decides the roles its map names (`roleClaim`, `roleMap`: a claim
   * value to a role's id, or its name): at each sign-in the user holds those the claim maps to and
   * loses the others of the map; roles outside the map, given by an administrator, stay. A mapped
   * role that was deleted is passed over. What was given is kept on the link. Answers the ids given.
   */
  async applyRoleClaims(userId: number, claims: OidcClaims, provider: OidcProvider): Promise<number[]> {
    if (!provider.roleClaim || !provider.roleMap) return [];
    const raw = claims[provider.roleClaim];
    const values = Array.isArray(raw) ? raw.map(String) : typeof raw === "string" ? [raw] : [];
    const existing = await this.roles.list();
    const roleOf = (ref: string) =>
      existing.find((role) => String(role.id) === ref.trim() || role.name === ref.trim())?.id;
    const managed = new Set(Object.values(provider.roleMap).flatMap((ref) => roleOf(ref) ?? []));
    const given = new Set(
      values.flatMap((v) =>
        Object.hasOwn(provider.roleMap ?? {}, v) ? (roleOf(provider.roleMap?.[v] ?? "") ?? []) : [],
      ),
    );
    const held = await this.roles.rolesOf(userId);
    const wanted = [...held.filter((id) => !managed.has(id)), ...given];
    if (wanted.length !== held.length || wanted.some((id) => !held.includes(id)))
      await this.roles.setUserRoles(userId, wanted);
    const ids = [...given].sort((a, b) => a - b);
    await this.db
      .updateTable("oidc_links")
      .set({ mapped_roles: ids.join(",") })
      .where("user_id", "=", userId)
      .where("provider_id", "=", provider.id)
      .execute();
    return ids;
  }

  private checkDomain(provider: OidcProvider, email: string, verified: boolean): void {
    if (provider.allowedDomains.length === 0) return;
    // Anyone may type any address into an account at some providers: only a verified one proves
    // its domain.
    if (!verified)
      throw refused("ErrOidcEmailUnverified", "${provider} gave no verified e-mail address", {
        provider: provider.name,
      });
    const domain = email.slice(email.lastIndexOf("@") + 1);
    if (!email.includes("@") || !provider.allowedDomains.includes(domain))
      throw refused("ErrOidcDomain", "${provider} sign-ins are open to ${domains} addresses only", {
        provider: provider.name,
        domains: provider.allowedDomains.join(", "),
      });
  }

  /** The provider's preferred user name, or the address's local part, made valid and free. */
  private async freeUsername(claims: OidcClaims, email: string): Promise<string> {
    const wanted =
      typeof claims.preferred_username === "string" ? claims.preferred_username : email.split("@")[0];
    let base = wanted.replace(/[^A-Za-z0-9._~-]/g, "").slice(0, 90);
    if (base.length < 5) base = `${base}-user`.padEnd(5, "0");
    for (let n = 0; n < 20; n++) {
      const name = n === 0 ? base : `${base}-${n + 1}`;
      const taken = await this.db
        .selectFrom("users")
        .select("id")
        .where("username", "=", name)
        .executeTakeFirst();
      if (!taken) return name;
    }
    return `${base}-${randomBytes(4).toString("hex")}`;
  }

  private async discover(provider: OidcProvider) {
    try {
      return await this.providers.configuration(provider);
    } catch (error) {
      throw new ApiError(
        502,
        "ErrOidcDiscovery",
        "${provider} could not be reached or is not that issuer: ${reason}",
        {
          provider: provider.name,
          reason: (error as Error).message.slice(0, 200),
        },
      );
    }
  }
}

const providerDisabled = () =>
  new ApiError(404, "ErrOidcProviderNotFound", "no such OpenID Connect provider");
