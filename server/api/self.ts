import { errors } from "../errors.ts";
import { requirePrincipal } from "../http/guard.ts";
import { checkNewPassword } from "../panel/account-rules.ts";
import { SelfUpdateBody, UserView } from "../wire/self.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** The signed-in user's own account. */
export function selfRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);

  api.get(
    "/api/self",
    { config: { access: "login" }, schema: { response: { 200: UserView } } },
    async (request) => {
      return requirePrincipal(request).user;
    },
  );

  api.put(
    "/api/self",
    { config: { access: "self.edit" }, schema: { body: SelfUpdateBody } },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const { username, email, password, newPassword } = request.body;
      if (!password) throw errors.fieldRequired("password");
      // Wrong current password is a client error (400), not a 500 as in the reference panel.
      if (!(await services.accounts.checkPasswordOf(principal.user.id, password)))
        throw errors.invalidCredentials();
      // Every field is checked before anything is written: a refused change leaves the account as it was.
      if (newPassword !== undefined) checkNewPassword(newPassword, "newPassword");
      await services.accounts.update(principal.user.id, { username, email });
      if (newPassword !== undefined) {
        await services.accounts.setPassword(principal.user.id, newPassword, "newPassword");
        // Everyone else who had this account's password is signed out; this session stays.
        await services.sessions.revokeAllOf(principal.user.id, principal.sessionHash);
      }
      return reply.status(204).send();
    },
  );
}
