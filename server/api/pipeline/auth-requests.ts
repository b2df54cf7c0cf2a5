import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.ts";
import { isSameOrigin } from "./same-origin.ts";

const unsafe = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The media type of the request's body without its parameters, or undefined when none is named. */
function mediaType(request: FastifyRequest): string | undefined {
  const header = request.headers["content-type"];
  return header === undefined ? undefined : header.split(";")[0].trim().toLowerCase();
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Login CSRF: the XSRF token guards calls that carry a session, but a sign-in
 * carries none yet, so a page on another site could post a form to
 * /auth/login and sign the visitor in as the attacker (the reference accepts
 * that form). Every state-changing /auth/ call therefore:
 * - takes JSON bodies only (a cross-site form cannot send JSON without asking
 *   first, which the panel never allows): another media type is 415;
 * - is refused (403 ErrCrossOrigin) when the browser says it comes from
 *   another origin. Without an Origin header (clients other than browsers)
 *   it passes.
 */
export function installAuthRequestRules(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    if (!unsafe.has(request.method) || !request.url.startsWith("/auth/")) return done();
    const origin = request.headers.origin;
    if (origin !== undefined && !isSameOrigin(origin, request)) {
      throw new ApiError(403, "ErrCrossOrigin", "requests from another site are refused");
    }
    const type = mediaType(request);
    if ((type !== undefined || hasBody(request)) && type !== "application/json") {
      throw new ApiError(415, "ErrUnsupportedMediaType", "/auth/ takes JSON bodies only");
    }
    done();
  });
}
