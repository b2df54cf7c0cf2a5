import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { TokenBody } from "../contract/api/auth.ts";
import { parseSftpUsername, sftpKeyGrant } from "../contract/node/sftp-username.ts";
import { ApiError } from "../errors.ts";
import type { PanelServices } from "../panel/services.ts";
import { sessionLifetimeMs } from "../panel/sessions.ts";
import { newToken } from "../panel/tokens.ts";
import { toApiError } from "./pipeline/error-handler.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/**
 * POST /oauth2/token: client_credentials, and password for nodes' SFTP
 * sign-ins (reference §3.5, §8). Answers in the OAuth2 error shape
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
      errorHandler: oauth2Error,
    },
    async (request, reply) => {
      reply.header("Cache-Control", "no-store").header("Pragma", "no-cache");
      if (request.validationError) {
        return reply
          .status(400)
          .send({ error: "invalid_request", error_description: "grant_type is required" });
      }
      const body = request.body;
      if (body.grant_type === "password" || body.grant_type === sftpKeyGrant)
        return passwordGrant(services, request, reply);
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
      } catch (err) {
        // The owner may no longer sign in; anything else is unexpected and goes to the error handler.
        if (err instanceof ApiError && err.code === "ErrLoginNotPermitted") {
          return reply.status(400).send({ error: "unauthorized_client" });
        }
        throw err;
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

/** A form field as text no longer than `max`, or undefined. */
function field(form: unknown, name: string, max: number): string | undefined {
  const value = (form as Record<string, unknown>)[name];
  return typeof value === "string" && value.length <= max ? value : undefined;
}

/**
 * grant_type=password, for a remote node checking an SFTP sign-in: the node
 * proves itself with its secret as a bearer token; the user is
 * `<email>#<serverId>`, the password the panel password. Every refusal of
 * the user is the same 400 invalid_grant. The answer's scope is
 * `<serverId>:server.sftp`, the form the reference's nodes look for, and
 * `<serverId>:server.files.edit` beside it when the session may change files
 * (without it, this panel's nodes keep the session read-only).
 *
 * The same answers the node's key grant (sftpKeyGrant): `public_key` in place
 * of the password, the node having checked the client's signature with it.
 */
async function passwordGrant(services: PanelServices, request: FastifyRequest, reply: FastifyReply) {
  const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "");
  const nodeId = bearer ? await services.sftpAuth.nodeBySecret(bearer[1]) : undefined;
  if (nodeId === undefined) {
    return reply.status(401).header("WWW-Authenticate", "Bearer").send({ error: "invalid_client" });
  }
  const username = field(request.body, "username", 512);
  const byKey = field(request.body, "grant_type", 64) === sftpKeyGrant;
  const password = byKey ? undefined : field(request.body, "password", 1024);
  const publicKey = byKey ? field(request.body, "public_key", 16_384) : undefined;
  if (!username || (byKey ? publicKey === undefined : password === undefined)) {
    return reply.status(400).send({
      error: "invalid_request",
      error_description: byKey
        ? "username and public_key are required"
        : "username and password are required",
    });
  }
  if (field(request.body, "scope", 64) !== "sftp") {
    return reply.status(400).send({ error: "invalid_scope" });
  }
  // The node says where its client connects from, so that the throttle
  // counts per client and not every failure on the node against the node.
  const address = field(request.body, "remote_address", 64) || request.ip;
  const login = parseSftpUsername(username) ?? { email: username, serverId: "" };
  const probe = byKey && field(request.body, "probe", 1) === "1";
  const access = await services.sftpAuth.allows({ ...login, password, publicKey, probe, address }, nodeId);
  if (access === undefined) {
    return reply.status(400).send({ error: "invalid_grant" });
  }
  // The node reads only the scope. The token is not stored and opens
  // nothing: a session here would hand the node the user's whole account.
  return {
    access_token: newToken(),
    token_type: "Bearer",
    expires_in: 0,
    scope: access.write
      ? `${login.serverId}:server.sftp ${login.serverId}:server.files.edit`
      : `${login.serverId}:server.sftp`,
    // Beyond the reference: the node tracks the session under this user, so the panel can end it.
    user_id: access.userId,
  };
}

/**
 * What is thrown on the way to the handler (a body that is not a form or JSON,
 * too large, holding NUL…) or inside it, in the OAuth2 error shape too.
 */
function oauth2Error(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(err, request);
  reply.header("Cache-Control", "no-store").header("Pragma", "no-cache");
  if (apiError.status >= 500) {
    reply.status(500).send({ error: "server_error" });
    return;
  }
  const meta = apiError.metadata ?? {};
  const description = apiError.message.replace(/\$\{(\w+)\}/g, (_, key: string) => String(meta[key] ?? key));
  reply.status(apiError.status).send({ error: "invalid_request", error_description: description });
}
