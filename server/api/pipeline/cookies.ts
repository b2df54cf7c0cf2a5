import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Cookie names and attributes. All of ours are Path=/, SameSite=Strict and
 * Secure when the request came over https or the panel's public URL is
 * https. The prefix is configurable.
 */
export class CookieJar {
  readonly auth: string;
  readonly authExpires: string;
  readonly scopes: string;
  readonly pending: string;
  /** The browser's device token (notifications/devices.ts): kept across sign-outs. */
  readonly device: string;
  /** The state of an OpenID Connect sign-in under way, binding it to this browser (issue 39). */
  readonly oidcState: string;
  static readonly xsrf = "XSRF-TOKEN";

  /**
   * @param alwaysSecure set when the panel's public URL is https: behind a
   * TLS-terminating proxy the request itself may arrive over plain http.
   */
  constructor(
    prefix: string,
    private readonly alwaysSecure = false,
  ) {
    this.auth = `${prefix}auth`;
    this.authExpires = `${prefix}auth_expires`;
    this.scopes = `${prefix}scopes`;
    this.pending = `${prefix}otp_pending`;
    this.device = `${prefix}device`;
    this.oidcState = `${prefix}oidc_state`;
  }

  private base(request: FastifyRequest) {
    return {
      path: "/",
      sameSite: "strict" as const,
      secure: this.alwaysSecure || request.protocol === "https",
    };
  }

  /** The HttpOnly session cookie, and the readable one the client uses to know it is signed in. */
  setSession(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: number): void {
    const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
    reply.setCookie(this.auth, token, { ...this.base(request), httpOnly: true, maxAge });
    reply.setCookie(this.authExpires, String(expiresAt), { ...this.base(request), httpOnly: false, maxAge });
  }

  clearSession(request: FastifyRequest, reply: FastifyReply): void {
    for (const name of [this.auth, this.authExpires, this.scopes, this.pending]) {
      reply.clearCookie(name, this.base(request));
    }
  }

  setPending(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
    reply.setCookie(this.pending, token, { ...this.base(request), httpOnly: true, maxAge: maxAgeSeconds });
  }

  clearPending(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(this.pending, this.base(request));
  }

  setDevice(request: FastifyRequest, reply: FastifyReply, token: string): void {
    // 400 days, the longest a browser keeps a cookie.
    reply.setCookie(this.device, token, { ...this.base(request), httpOnly: true, maxAge: 400 * 24 * 3600 });
  }

  /**
   * Lax, unlike the others: the provider sends the browser back with a top-level navigation from
   * its own site, which a Strict cookie would not come with. Only the callback's path reads it.
   */
  setOidcState(request: FastifyRequest, reply: FastifyReply, state: string, maxAgeSeconds: number): void {
    reply.setCookie(this.oidcState, state, {
      ...this.base(request),
      path: "/auth/oidc/",
      sameSite: "lax",
      httpOnly: true,
      maxAge: maxAgeSeconds,
    });
  }

  clearOidcState(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(this.oidcState, { ...this.base(request), path: "/auth/oidc/", sameSite: "lax" });
  }

  setXsrf(request: FastifyRequest, reply: FastifyReply, token: string): void {
    reply.setCookie(CookieJar.xsrf, token, { ...this.base(request), httpOnly: false });
  }
}
