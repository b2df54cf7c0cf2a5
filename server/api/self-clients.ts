import { SelfClient, SelfClientCreateBody, SelfClientList, SelfClientParams } from "../contract/api/self.ts";
import type { OAuthClient } from "../panel/oauth-clients.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const view = (client: OAuthClient, secret = "") => ({
  client_id: client.clientId,
  client_secret: secret,
  name: client.name,
  description: client.description,
});

/** The signed-in user's own OAuth2 clients (reference §3.5, §12.16); the secret is shown once. */
export function selfClientRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { clients } = services;

  api.get(
    "/api/self/oauth2",
    { config: { access: "self.clients" }, schema: { response: { 200: SelfClientList } } },
    async (request) => (await clients.listOwn(requirePrincipal(request).user.id)).map((c) => view(c)),
  );

  api.post(
    "/api/self/oauth2",
    {
      config: { access: "self.clients" },
      schema: { body: SelfClientCreateBody, response: { 200: SelfClient } },
    },
    async (request) => {
      const { user } = requirePrincipal(request);
      const { client, secret } = await services.ownAccount.createClient(user, request.body, request.log);
      return view(client, secret);
    },
  );

  api.delete(
    "/api/self/oauth2/:clientId",
    { config: { access: "self.clients" }, schema: { params: SelfClientParams } },
    async (request, reply) => {
      await services.ownAccount.deleteClient(
        requirePrincipal(request).user,
        request.params.clientId,
        request.log,
      );
      return reply.status(204).send();
    },
  );
}
