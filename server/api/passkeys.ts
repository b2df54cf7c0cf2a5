import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { FastifyRequest } from "fastify";
import { LoginAnswer } from "../contract/api/auth.ts";
import {
  PasskeyList,
  PasskeyParams,
  PasskeyRegisterBody,
  PasskeyRenameBody,
  PasskeySignInBody,
  PasskeyView,
  WebAuthnJson,
} from "../contract/api/passkeys.ts";
import type { Settings } from "../panel/settings.ts";
import type { RelyingParty } from "../panel/sign-in-methods/passkeys.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { sessionStarter } from "./session-start.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/**
 * The passkeys' relying party is the host the browser reached the panel at: the browser binds
 * each passkey to it, and refuses to use it anywhere else, so no setting can get it wrong.
 */
async function relyingParty(request: FastifyRequest, settings: Settings): Promise<RelyingParty> {
  return {
    id: request.hostname,
    origin: `${request.protocol}://${request.host}`,
    name: String(await settings.get("panel.settings.companyName")),
  };
}

/** Passkeys (issue 39): the user's own at /api/self/passkeys, signing in with one at /auth/passkey. */
export function passkeyRoutes(app: Api, { services, cookies }: RouteContext): void {
  const api = typed(app);
  const { passkeys, passkeySignIn, settings } = services;
  const started = sessionStarter(services, cookies);
  const byId = { params: PasskeyParams };

  api.get(
    "/api/self/passkeys",
    { config: { access: "self.edit" }, schema: { response: { 200: PasskeyList } } },
    (request) => passkeys.list(requirePrincipal(request).user.id),
  );

  api.post(
    "/api/self/passkeys/options",
    { config: { access: "self.edit" }, schema: { response: { 200: WebAuthnJson } } },
    async (request) => ({
      ...(await passkeys.registrationOptions(
        requirePrincipal(request).user,
        await relyingParty(request, settings),
      )),
    }),
  );

  api.post(
    "/api/self/passkeys",
    {
      config: { access: "self.edit" },
      schema: { body: PasskeyRegisterBody, response: { 200: PasskeyView } },
    },
    async (request) =>
      passkeys.register(
        requirePrincipal(request).user.id,
        { name: request.body.name, response: request.body.response as unknown as RegistrationResponseJSON },
        await relyingParty(request, settings),
      ),
  );

  api.put(
    "/api/self/passkeys/:id",
    { config: { access: "self.edit" }, schema: { ...byId, body: PasskeyRenameBody } },
    async (request, reply) => {
      await passkeys.rename(requirePrincipal(request).user.id, request.params.id, request.body.name);
      return reply.status(204).send();
    },
  );

  api.delete(
    "/api/self/passkeys/:id",
    { config: { access: "self.edit" }, schema: byId },
    async (request, reply) => {
      await passkeys.remove(requirePrincipal(request).user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  // With the pending cookie of a password step, only that account's passkeys are asked for.
  api.post(
    "/auth/passkey/options",
    { config: { access: "public" }, schema: { response: { 200: WebAuthnJson } } },
    async (request) => ({
      ...(await passkeySignIn.options(
        request.cookies[cookies.pending],
        await relyingParty(request, settings),
      )),
    }),
  );

  api.post(
    "/auth/passkey",
    { config: { access: "public" }, schema: { body: PasskeySignInBody, response: { 200: LoginAnswer } } },
    async (request, reply) => {
      const pending = request.cookies[cookies.pending];
      const session = await passkeySignIn.complete(
        pending,
        request.body.response as unknown as AuthenticationResponseJSON,
        request.ip,
        await relyingParty(request, settings),
      );
      if (pending) cookies.clearPending(request, reply);
      return started(request, reply, session);
    },
  );
}
