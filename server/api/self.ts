import { errors } from "../errors.ts";
import { requirePrincipal } from "../http/guard.ts";
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
      if (newPassword !== undefined) {
        await services.accounts.setPassword(principal.user.id, newPassword, "newPassword");
        // Everyone else who had this account's password is signed out; this session stays.
        await services.sessions.revokeAllOf(principal.user.id, principal.sessionHash);
      }
      await services.accounts.update(principal.user.id, { username, email });
      return reply.status(204).send();
    },
  );
}
