import type { FastifyInstance } from "fastify";
import { ApiError } from "../../errors.ts";
import { newToken, sameSecret } from "../../panel/tokens.ts";
import { CookieJar } from "./cookies.ts";

const unsafe = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Double-submit XSRF protection (the reference panel has none). The panel
 * hands every browser a readable XSRF-TOKEN cookie; a state-changing request
 * that carries the session cookie must echo it in X-XSRF-TOKEN. Calls with a
 * bearer token are exempt: a browser never adds that header on its own.
 */
export function installXsrf(app: FastifyInstance, cookies: CookieJar): void {
  app.addHook("onRequest", (request, reply, done) => {
    const cookie = request.cookies[CookieJar.xsrf];
    if (!cookie) cookies.setXsrf(request, reply, newToken());
    if (!unsafe.has(request.method)) return done();
    if (request.headers.authorization !== undefined) return done();
    if (!request.cookies[cookies.auth] && !request.cookies[cookies.pending]) return done();
    const header = request.headers["x-xsrf-token"];
    if (!cookie || typeof header !== "string" || !sameSecret(cookie, header)) {
      throw new ApiError(403, "ErrXsrfTokenInvalid", "missing or wrong X-XSRF-TOKEN header");
    }
    done();
  });
}
