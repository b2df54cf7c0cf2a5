import { sessionLifetimeMs } from "../panel/sessions.ts";
import { TokenBody } from "../wire/auth.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/**
 * POST /oauth2/token (client_credentials). Answers in the OAuth2 error shape
 * (RFC 6749 §5.2), not the API envelope. Credentials may come in the form or
 * as HTTP Basic auth.
 */
export function oauth2Routes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  api.post(
    "/oauth2/token",
    {
      config: { access: "public" },
      schema: { body: TokenBody },
      attachValidation: true,
    },
    async (request, reply) => {
      reply.header("Cache-Control", "no-store").header("Pragma", "no-cache");
      if (request.validationError) {
        return reply
          .status(400)
          .send({ error: "invalid_request", error_description: "grant_type is required" });
      }
      const body = request.body;
      if (body.grant_type !== "client_credentials") {
        return reply.status(400).send({ error: "unsupported_grant_type" });
      }
      let { client_id: id, client_secret: secret } = body;
      const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "");
      if (basic) {
        const decoded = Buffer.from(basic[1], "base64").toString();
        const colon = decoded.indexOf(":");
        if (colon > 0) {
          id = decodeURIComponent(decoded.slice(0, colon));
          secret = decodeURIComponent(decoded.slice(colon + 1));
        }
      }
      if (!id || !secret) {
        return reply
          .status(400)
          .send({ error: "invalid_request", error_description: "client credentials required" });
      }
      let session: Awaited<ReturnType<typeof services.signIn.clientToken>>;
      try {
        session = await services.signIn.clientToken(id, secret);
      } catch {
        // The owner may no longer sign in.
        return reply.status(400).send({ error: "unauthorized_client" });
      }
      if (!session) {
        return reply.status(401).header("WWW-Authenticate", "Basic").send({ error: "invalid_client" });
      }
      return {
        access_token: session.token,
        token_type: "Bearer",
        expires_in: Math.round(sessionLifetimeMs / 1000),
        scope: session.scopes.join(" "),
      };
    },
  );
}
