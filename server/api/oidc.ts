import type { FastifyRequest } from "fastify";
import {
  OidcLinkList,
  OidcLinkParams,
  OidcLinkStart,
  OidcProviderBody,
  OidcProviderList,
  OidcProviderParams,
  OidcProviderView,
} from "../contract/api/oidc.ts";
import { ApiError } from "../errors.ts";
import type { ActivityActor } from "../panel/activity.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { sessionStarter } from "./session-start.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Seconds the browser has at the provider (the state waits as long: oidc-sign-in.ts). */
const stateSeconds = 600;

/**
 * OpenID Connect (issue 39): providers for administrators at /api/oidc-providers; the browser's
 * round trip at /auth/oidc/{id} and back at /auth/oidc/{id}/callback; each user's links at
 * /api/self/oidc-links. The callback is a page the browser navigates to, so it answers with
 * redirects: home once signed in, the account page once linked, the login page with the error's
 * code (`?oidcError=`, and its metadata beside it) when refused.
 */
export function oidcRoutes(app: Api, { services, cookies }: RouteContext): void {
  const api = typed(app);
  const { oidcProviders, oidcSignIn, settings } = services;
  const started = sessionStarter(services, cookies);
  const byId = { params: OidcProviderParams };
  // The address the provider sends the browser back to, registered there: the panel's public URL.
  const callbackOf = async (id: number) =>
    `${String(await settings.get("panel.settings.masterUrl")).replace(/\/+$/, "")}/auth/oidc/${id}/callback`;

  api.get(
    "/api/oidc-providers",
    { config: { access: "admin" }, schema: { response: { 200: OidcProviderList } } },
    () => oidcProviders.list(),
  );
  api.post(
    "/api/oidc-providers",
    { config: { access: "admin" }, schema: { body: OidcProviderBody, response: { 200: OidcProviderView } } },
    (request) => oidcProviders.create(request.body),
  );
  api.put(
    "/api/oidc-providers/:id",
    {
      config: { access: "admin" },
      schema: { ...byId, body: OidcProviderBody, response: { 200: OidcProviderView } },
    },
    (request) => oidcProviders.update(request.params.id, request.body),
  );
  api.delete(
    "/api/oidc-providers/:id",
    { config: { access: "admin" }, schema: byId },
    async (request, reply) => {
      await oidcProviders.delete(request.params.id);
      return reply.status(204).send();
    },
  );

  api.get("/auth/oidc/:id", { config: { access: "public" }, schema: byId }, async (request, reply) => {
    try {
      const { url, state } = await oidcSignIn.begin(request.params.id, await callbackOf(request.params.id));
      cookies.setOidcState(request, reply, state, stateSeconds);
      return reply.redirect(url);
    } catch (error) {
      return reply.redirect(loginWithError(error));
    }
  });

  // A GET by the protocol, so the route hook (write routes only) does not see it: it records its
  // sign-ins and links itself, done or refused, as the hook would.
  api.get(
    "/auth/oidc/:id/callback",
    { config: { access: "public" }, schema: byId },
    async (request, reply) => {
      const bound = request.cookies[cookies.oidcState];
      cookies.clearOidcState(request, reply);
      const details = { method: "oidc", provider: request.params.id };
      const record = (
        action: string,
        ok: boolean,
        actor: ActivityActor,
        extra: Record<string, unknown> = {},
      ) =>
        services.activity.record({
          actor,
          address: request.ip,
          action,
          ok,
          subject: "",
          details: { ...details, ...extra },
        });
      try {
        const result = await oidcSignIn.finish(request.params.id, currentUrl(request), bound, request.ip);
        if (result.kind === "linked") {
          const user = await services.accounts.byId(result.userId);
          await record("self.oidc.link", true, {
            kind: "user",
            userId: result.userId,
            name: user?.username ?? "",
          });
          return reply.redirect("/self?linked=1");
        }
        await started(request, reply, result.session);
        const who = result.session.user;
        await record("auth.login", true, { kind: "user", userId: who?.id, name: who?.username ?? "" });
        return reply.redirect("/");
      } catch (error) {
        const target = loginWithError(error);
        await record(
          "auth.login.failed",
          false,
          { kind: "user", name: "" },
          { error: (error as ApiError).code },
        );
        return reply.redirect(target);
      }
    },
  );

  api.get(
    "/api/self/oidc-links",
    { config: { access: "self.edit" }, schema: { response: { 200: OidcLinkList } } },
    (request) => oidcSignIn.links(requirePrincipal(request).user.id),
  );
  // Linking starts here (a write, so XSRF-checked), then the browser goes to the answered URL.
  api.post(
    "/api/self/oidc-links/:id",
    { config: { access: "self.edit" }, schema: { ...byId, response: { 200: OidcLinkStart } } },
    async (request, reply) => {
      const { user } = requirePrincipal(request);
      const { url, state } = await oidcSignIn.begin(
        request.params.id,
        await callbackOf(request.params.id),
        user.id,
      );
      cookies.setOidcState(request, reply, state, stateSeconds);
      return { url };
    },
  );
  api.delete(
    "/api/self/oidc-links/:id",
    { config: { access: "self.edit" }, schema: { params: OidcLinkParams } },
    async (request, reply) => {
      await oidcSignIn.unlink(requirePrincipal(request).user.id, request.params.id);
      return reply.status(204).send();
    },
  );
}

/** The callback as the browser asked for it, query included (its path is checked against the redirect URI). */
function currentUrl(request: FastifyRequest): URL {
  return new URL(request.url, `${request.protocol}://${request.host}`);
}

/** The login page, told why (an error code the page shows in the reader's words). */
function loginWithError(error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  const query = new URLSearchParams({ oidcError: error.code });
  // What the page's message fills in: the provider's name, the allowed domains.
  for (const [key, value] of Object.entries(error.metadata ?? {}))
    if (key !== "reason") query.set(key, String(value));
  return `/auth/login?${query}`;
}
