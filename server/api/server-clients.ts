import {
  ServerClientCreateBody,
  ServerClientCreated,
  ServerClientList,
  ServerClientParams,
} from "../contract/api/server-clients.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import type { OAuthClient } from "../panel/oauth-clients.ts";
import { requirePrincipal, requireServerScopes } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const view = (client: OAuthClient) => ({
  client_id: client.clientId,
  name: client.name,
  description: client.description,
  scopes: client.scopes,
});

/** OAuth2 clients bound to one server, under /api/servers/{id}/oauth2. */
export function serverClientRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { serverClients } = services;

  api.get(
    "/api/servers/:id/oauth2",
    {
      config: { access: "server.clients.view" },
      schema: { params: ServerIdParams, response: { 200: ServerClientList } },
    },
    async (request) => (await serverClients.list(request.params.id)).map(view),
  );

  api.post(
    "/api/servers/:id/oauth2",
    {
      config: { access: "server.clients.create" },
      schema: {
        params: ServerIdParams,
        body: ServerClientCreateBody,
        response: { 200: ServerClientCreated },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const held = requireServerScopes(request);
      const { client, secret } = await serverClients.create(request.params.id, request.body, {
        userId: principal.user.id,
        held,
      });
      return { ...view(client), client_secret: secret };
    },
  );

  api.delete(
    "/api/servers/:id/oauth2/:clientId",
    { config: { access: "server.clients.delete" }, schema: { params: ServerClientParams } },
    async (request, reply) => {
      await serverClients.delete(request.params.id, request.params.clientId);
      return reply.status(204).send();
    },
  );
}
