import type { Db } from "../db/database.ts";
import { ReadCache } from "../db/read-cache.ts";
import { writeGeneration } from "../db/write-generation.ts";
import { type Accounts, toUser, type User } from "./accounts.ts";
import type { OAuthClients } from "./oauth-clients.ts";
import { globalScopesColumn, type Permissions, rightsOn, withRoles } from "./permissions.ts";
import { holdsScope, parseScopes } from "./scopes.ts";
import type { Sessions } from "./sessions.ts";
import type { Settings } from "./settings.ts";
import type { Passkeys } from "./sign-in-methods/passkeys.ts";
import { tokenHash } from "./tokens.ts";

/** Who is calling: a signed-in user, or an OAuth2 client acting for its owner. */
export interface Principal {
  user: User;
  /** How the token arrived; bearer calls are exempt from the XSRF check. */
  via: "cookie" | "bearer";
  token: string;
  sessionHash: string;
  clientId: string | null;
  /** Global scopes in force for this call. */
  scopes: string[];
  /** Set for clients bound to one server: they act on that server only. */
  onlyServer?: string;
  /** For such a client: the scopes it was given, and its owner's global scopes (read once per call). */
  bound?: { clientScopes: string[]; ownerScopes: string[] };
  /**
   * Two-factor sign-in is required of this account (the panel's setting or one of its roles) and
   * it has no second step yet (an app code or a passkey, sign-in.ts): until it enrols, the guard lets it reach only its account, enrolment and
   * sign-out (guard.ts).
   */
  twoFactorPending?: boolean;
}

export interface PrincipalDeps {
  db: Db;
  accounts: Accounts;
  sessions: Sessions;
  clients: OAuthClients;
  permissions: Permissions;
  settings: Settings;
  passkeys: Pick<Passkeys, "count">;
}

/** What a live session resolves to, as kept in memory between calls. */
interface SessionEntry {
  principal: Omit<Principal, "via" | "token">;
  expiresAt: number;
}

const sessionCaches = new WeakMap<object, ReadCache<SessionEntry>>();

/**
 * Sessions resolved by earlier calls, by token. Keyed by the token itself, not
 * its hash: hashing it on every call cost a few per cent of a cached list, and
 * the process holds each call's token in memory anyway; only the database
 * keeps hashes, so a copy of it signs no one in. Every API call needs its
 * session, user and scopes; kept in memory they cost no query. Any write to
 * the database drops them all (read-cache.ts), so a logout, a deleted user, a
 * changed password or scope, a deleted OAuth client is in force on the very
 * next call (through another panel sharing a PostgreSQL database: once its
 * notification arrived, write-notifications.ts); the expiry is checked on every hit.
 */
function sessionCache(db: Db): ReadCache<SessionEntry> {
  let cache = sessionCaches.get(db);
  if (!cache) {
    cache = new ReadCache(writeGeneration(db));
    sessionCaches.set(db, cache);
  }
  return cache;
}

/**
 * Resolves a session token into a principal, or undefined when it is not a live session. A kept
 * session answers at once, without a promise: this runs on every API call.
 *
 * A call that may write (`forWrite`: any method but GET and HEAD) never gets a kept session: its
 * session, user and scopes are read from the database for it. Memory may lag behind another
 * panel's commits for a moment (write-notifications.ts); a revoked session or a removed scope must
 * not get a write through in that moment. Reads accept that window; writes have none.
 */
export function principalFromToken(
  deps: PrincipalDeps,
  token: string,
  via: Principal["via"],
  forWrite: boolean,
): Principal | undefined | Promise<Principal | undefined> {
  const cache = sessionCache(deps.db);
  const entry = forWrite ? undefined : cache.get(token);
  if (entry) return principalOf(entry, token, via);
  return readSession(deps, cache, token, via);
}

async function readSession(
  deps: PrincipalDeps,
  cache: ReadCache<SessionEntry>,
  token: string,
  via: Principal["via"],
): Promise<Principal | undefined> {
  const stamp = cache.begin();
  const entry = await loadSession(deps, tokenHash(token));
  if (!entry) return undefined;
  cache.set(token, entry, stamp);
  return principalOf(entry, token, via);
}

const expired = (entry: SessionEntry) => entry.expiresAt <= Date.now();

/** The call's principal from a session entry, unless it expired. */
function principalOf(entry: SessionEntry, token: string, via: Principal["via"]): Principal | undefined {
  if (expired(entry)) return undefined;
  // A copy per call: nothing a route does to its principal reaches the next call's.
  const { principal } = entry;
  const { user, bound } = principal;
  const copy: Principal = {
    user: { id: user.id, username: user.username, email: user.email, otpActive: user.otpActive },
    via,
    token,
    sessionHash: principal.sessionHash,
    clientId: principal.clientId,
    scopes: principal.scopes.slice(),
  };
  if (principal.onlyServer !== undefined) copy.onlyServer = principal.onlyServer;
  if (principal.twoFactorPending) copy.twoFactorPending = true;
  if (bound)
    copy.bound = { clientScopes: bound.clientScopes.slice(), ownerScopes: bound.ownerScopes.slice() };
  return copy;
}

async function loadSession(deps: PrincipalDeps, hash: string): Promise<SessionEntry | undefined> {
  // Session, user and global scopes in one query.
  const row = await deps.db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select((eb) => [
      "sessions.token_hash",
      "sessions.client_id",
      "sessions.expires_at",
      "users.id",
      "users.username",
      "users.email",
      "users.otp_active",
      globalScopesColumn(eb),
    ])
    .where("sessions.token_hash", "=", hash)
    .where("sessions.kind", "=", "session")
    .where("sessions.expires_at", ">", Date.now())
    .executeTakeFirst();
  if (!row) return undefined;
  // The roles' scopes join the account's own (permissions.ts); a role may require two-factor.
  const roles = (await deps.permissions.roleGrantsOf([row.id])).get(row.id);
  const principal: SessionEntry["principal"] = {
    user: toUser(row),
    sessionHash: row.token_hash,
    clientId: row.client_id,
    scopes: withRoles(parseScopes(row.scopes ?? ""), roles),
  };
  if (
    row.otp_active !== 1 &&
    (roles?.require2fa || (await deps.settings.get("panel.security.require2fa")) === true) &&
    // A passkey is a second step after the password (sign-in.ts): it counts as enrolled.
    (await deps.passkeys.count(row.id)) === 0
  )
    principal.twoFactorPending = true;
  if (row.client_id) {
    const client = await deps.clients.byId(row.client_id);
    if (!client) return undefined;
    if (client.serverId) {
      // A server-bound client holds only what it was given, on its server only.
      principal.bound = { clientScopes: client.scopes, ownerScopes: principal.scopes };
      principal.scopes = [];
      principal.onlyServer = client.serverId;
    }
  }
  return { principal, expiresAt: Number(row.expires_at) };
}

/**
 * The scopes a principal holds on one server: its server row plus its global row (reference §2.2),
 * by the one rule (permissions.ts: nothing without `login`).
 */
export async function scopesOnServer(
  deps: PrincipalDeps,
  principal: Principal,
  serverId: string,
): Promise<string[]> {
  if (!reaches(principal, serverId)) return [];
  return heldWith(principal, (await deps.permissions.serverScopes(principal.user.id, serverId)) ?? []);
}

/** `scopesOnServer` for several servers, their rows read in one query. */
export async function scopesOnServers(
  deps: PrincipalDeps,
  principal: Principal,
  serverIds: readonly string[],
): Promise<string[][]> {
  const rows = await deps.permissions.serverScopesOnEach(
    principal.user.id,
    serverIds.filter((id) => reaches(principal, id)),
  );
  return serverIds.map((id) => (reaches(principal, id) ? heldWith(principal, rows.get(id) ?? []) : []));
}

/** A server-bound client reaches its own server only. */
const reaches = (principal: Principal, serverId: string) =>
  principal.onlyServer === undefined || (principal.onlyServer === serverId && principal.bound !== undefined);

/** What the principal holds on a server whose row for its user holds `onServer`. */
function heldWith(principal: Principal, onServer: readonly string[]): string[] {
  if (!principal.bound) return rightsOn(principal.scopes, onServer);
  // A bound client never reaches further than its owner (the token's user) reaches now: what the
  // owner lost there (or the owner's removal from the server) the client loses too.
  const owner = rightsOn(principal.bound.ownerScopes, onServer);
  return principal.bound.clientScopes.filter((scope) => holdsScope(owner, scope));
}
