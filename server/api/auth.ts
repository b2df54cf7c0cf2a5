import { LoginAnswer, LoginBody, OtpBody, RegisterBody } from "../contract/api/auth.ts";
import { InviteAcceptBody } from "../contract/api/server-users.ts";
import { otpPendingSeconds } from "../panel/sign-in.ts";
import { tokenHash } from "../panel/tokens.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { sessionStarter } from "./session-start.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** /auth/*: sign-in with cookies (reference §3.3). */
export function authRoutes(app: Api, { services, cookies }: RouteContext): void {
  const api = typed(app);
  const answer = { 200: LoginAnswer };

  const started = sessionStarter(services, cookies);

  api.post(
    "/auth/login",
    { config: { access: "public" }, schema: { body: LoginBody, response: answer } },
    async (request, reply) => {
      const result = await services.signIn.login(request.body.email, request.body.password, request.ip);
      if (result.kind === "otp") {
        cookies.setPending(request, reply, result.pendingToken, otpPendingSeconds);
        // The reference's answer as it was for an account with a code alone.
        const { secondFactors } = result;
        return secondFactors.includes("passkey") ? { otpNeeded: true, secondFactors } : { otpNeeded: true };
      }
      return started(request, reply, result.session);
    },
  );

  api.post(
    "/auth/otp",
    { config: { access: "public" }, schema: { body: OtpBody, response: answer } },
    async (request, reply) => {
      const session = await services.signIn.completeOtp(
        request.cookies[cookies.pending],
        request.body.token,
        request.ip,
        request.log,
      );
      cookies.clearPending(request, reply);
      return started(request, reply, session);
    },
  );

  api.post(
    "/auth/register",
    { config: { access: "public" }, schema: { body: RegisterBody, response: answer } },
    async (request, reply) =>
      started(request, reply, await services.signIn.register(request.body, request.ip)),
  );

  // An invited user chooses a username and password with the link's token, and is signed in.
  api.post(
    "/auth/invite",
    { config: { access: "public" }, schema: { body: InviteAcceptBody, response: answer } },
    async (request, reply) =>
      started(request, reply, await services.invites.accept(request.body, request.ip)),
  );

  api.post(
    "/auth/reauth",
    { config: { access: "authenticated" }, schema: { response: answer } },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      if (principal.via === "bearer") {
        // A bearer token is renewed by asking /oauth2/token again; nothing to rotate here.
        return { scopes: principal.scopes };
      }
      const renewed = await services.signIn.reauth(principal.user, principal.sessionHash);
      // The sockets opened with the old session go on with the new one: its sign-out ends them.
      services.live.renameSession(principal.sessionHash, tokenHash(renewed.token));
      return started(request, reply, renewed);
    },
  );

  api.post("/auth/logout", { config: { access: "public" } }, async (request, reply) => {
    const token = request.cookies[cookies.auth];
    if (token) {
      // Whose session ends, for the activity log (the route is public: no principal names them).
      const ending = await services.sessions.find(token, "session");
      const user = ending && (await services.accounts.byId(ending.userId));
      if (user) request.activityActor = { kind: "user", userId: user.id, name: user.username };
      await services.sessions.revoke(token);
    }
    const pending = request.cookies[cookies.pending];
    if (pending) await services.sessions.revoke(pending);
    cookies.clearSession(request, reply);
    return reply.status(204).send();
  });
}
