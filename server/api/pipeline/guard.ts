import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from "fastify";
import type { Scope } from "../../contract/scopes.ts";
import { errors } from "../../errors.ts";
import { mayLogIn } from "../../panel/permissions.ts";
import {
  type Principal,
  type PrincipalDeps,
  principalFromToken,
  scopesOnServer,
} from "../../panel/principal.ts";
import { holdsScope } from "../../panel/scopes.ts";
import type { CookieJar } from "./cookies.ts";

/**
 * Every API route declares who may call it in `config.access`:
 * - "public": anyone;
 * - "authenticated": any signed-in principal;
 * - a scope: a principal holding it (for server scopes, on the server named by
 *   the route param `config.serverParam`, default "id").
 * Every rule but "public" also needs `login` on the account behind the call
 * (a server-bound client's owner): taking `login` away bars a user from every
 * route at once, the sessions they still hold included.
 * A route under /api, /auth or /oauth2 without a declaration fails at startup,
 * so no endpoint can forget its check.
 *
 * An account that must set up two-factor sign-in and has not (Principal.twoFactorPending: the
 * panel's setting panel.security.require2fa, or one of its roles) reaches only the routes of
 * `untilEnrolled` — its own account, the enrolment, its preferences, renewing its session; every
 * other route answers 403 ErrTwoFactorRequired. Sign-out is public. Decided here, for every route.
 */
export type RouteAccess = "public" | "authenticated" | Scope;

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    serverParam?: string;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** What the principal holds on the route's server, as the guard found it. */
    serverScopes?: string[];
  }
}

const bearerPattern = /^Bearer ([A-Za-z0-9._~+/=-]+)$/;

/**
 * Reads the token from the Authorization header, else from the session cookie. A malformed header
 * is a 401 (thrown). A session kept in memory answers a read without a promise.
 */
export function authenticate(
  deps: PrincipalDeps,
  cookies: CookieJar,
  request: FastifyRequest,
): Principal | undefined | Promise<Principal | undefined> {
  // A call that may write is authorised against the database, never a session kept in memory.
  const forWrite = request.method !== "GET" && request.method !== "HEAD";
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = bearerPattern.exec(header);
    if (!match) throw errors.notLoggedIn();
    return principalFromToken(deps, match[1], "bearer", forWrite);
  }
  const token = request.cookies[cookies.auth];
  return token ? principalFromToken(deps, token, "cookie", forWrite) : undefined;
}

export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw errors.notLoggedIn();
  return request.principal;
}

/** The scopes the guard found the principal holding on the route's server: no second lookup. */
export function requireServerScopes(request: FastifyRequest): string[] {
  if (!request.serverScopes) throw new Error("route is not guarded by a server scope");
  return request.serverScopes;
}

const guardedPrefixes = ["/api", "/auth", "/oauth2"];

/** What an account that must enrol in two-factor sign-in may still reach (by route pattern). */
const untilEnrolled = new Set([
  "/api/self",
  "/api/self/otp",
  "/api/self/otp/:token",
  "/api/self/otp/recovery",
  // A passkey is the other second step (sign-in.ts): listing and adding one is enrolment too.
  "/api/self/passkeys",
  "/api/self/passkeys/options",
  "/api/userSettings",
  "/api/userSettings/:key",
  "/auth/reauth",
]);

/** One guarded route as declared: what the refusal tests walk through. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  serverParam: string;
  /** The route's body and query schemas, as given: what the secret-mark test walks. */
  schema?: { body?: unknown; querystring?: unknown };
}

const declared = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every guarded route of an app and its access rule, in the order they were added. */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return declared.get(app) ?? [];
}

export function installGuard(app: FastifyInstance, deps: PrincipalDeps, cookies: CookieJar): void {
  const table: DeclaredRoute[] = [];
  declared.set(app, table);

  /** Lets the principal through or throws; a promise only when a server's scopes must be read. */
  const admit = (
    request: FastifyRequest,
    access: Exclude<RouteAccess, "public">,
    serverParam: string,
    beforeEnrolment: boolean,
    principal: Principal | undefined,
  ): Promise<void> | undefined => {
    if (!principal) throw errors.notLoggedIn();
    request.principal = principal;
    if (!mayLogIn(principal.bound?.ownerScopes ?? principal.scopes)) throw errors.missingScope("login");
    if (principal.twoFactorPending && !beforeEnrolment) throw errors.twoFactorRequired();
    if (access === "authenticated") return;
    const serverId = (request.params as Record<string, string> | undefined)?.[serverParam];
    if (access.startsWith("server.") && serverId) {
      return scopesOnServer(deps, principal, serverId).then((held) => {
        request.serverScopes = held;
        if (!holdsScope(held, access)) throw errors.missingScope(access);
      });
    }
    if (!holdsScope(principal.scopes, access)) throw errors.missingScope(access);
  };

  /**
   * The check of one route, made when the route is added with its rule built in: nothing is looked
   * up per call (`request.routeOptions` builds a new object on every read). Callback-style, and
   * without a promise when the session is kept in memory and no server's scopes are needed: this
   * runs on every call. A throw here reaches the error handler as done(err).
   */
  const guardOf = (
    access: Exclude<RouteAccess, "public">,
    serverParam: string,
    beforeEnrolment: boolean,
  ): onRequestHookHandler =>
    function accessGuard(request, _reply, done) {
      const found = authenticate(deps, cookies, request);
      const admitted =
        found instanceof Promise
          ? found.then((principal) => admit(request, access, serverParam, beforeEnrolment, principal))
          : admit(request, access, serverParam, beforeEnrolment, found);
      if (admitted) admitted.then(() => done(), done);
      else done();
    };

  app.addHook("onRoute", (route) => {
    const guarded = guardedPrefixes.some((p) => route.url === p || route.url.startsWith(`${p}/`));
    if (!guarded) return;
    const access = route.config?.access;
    // HEAD routes Fastify adds beside GET ones carry the GET's config; only a declared one needs a rule.
    if (access === undefined && route.method === "HEAD") return;
    if (access === undefined) throw new Error(`route ${route.method} ${route.url} declares no access rule`);
    const serverParam = route.config?.serverParam ?? "id";
    const schema = route.schema;
    for (const method of [route.method].flat())
      table.push({ method, url: route.url, access, serverParam, schema });
    if (access === "public") return;
    // The route's own onRequest hooks run after the app's (cookies, XSRF, NUL guard): the guard goes
    // first among the route's, so it runs where the app-wide guard did.
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [guardOf(access, serverParam, untilEnrolled.has(route.url)), ...own];
  });
}
