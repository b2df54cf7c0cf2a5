import { SelfUpdateBody, UserView } from "../contract/api/self.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
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
      const { user, sessionHash } = requirePrincipal(request);
      await services.ownAccount.change(user, sessionHash, request.body, request.ip, request.log);
      return reply.status(204).send();
    },
  );
}
