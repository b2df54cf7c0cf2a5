import type { FastifyReply, FastifyRequest } from "fastify";
import type { PanelServices } from "../panel/services.ts";
import type { IssuedSession } from "../panel/sign-in.ts";
import type { CookieJar } from "./pipeline/cookies.ts";

/**
 * What every browser sign-in does once a session is issued (password, code, passkey, OpenID):
 * the session's cookies, the activity log's actor, the device it came from. Answers `{scopes}`.
 */
export function sessionStarter(services: PanelServices, cookies: CookieJar) {
  return async (request: FastifyRequest, reply: FastifyReply, session: IssuedSession) => {
    cookies.setSession(request, reply, session.token, session.expiresAt);
    // The activity log's sign-in entry names who signed in (activity-hook.ts).
    if (session.user)
      request.activityActor = { kind: "user", userId: session.user.id, name: session.user.username };
    if (session.user) {
      const device = await services.devices.signedIn(
        session.user.id,
        request.cookies[cookies.device],
        request.ip,
        request.headers["user-agent"] ?? "",
      );
      cookies.setDevice(request, reply, device);
    }
    return { scopes: session.scopes };
  };
}
