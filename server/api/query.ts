import { ServerIdParams } from "../contract/api/servers.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const byId = { params: ServerIdParams };

/** HEAD and GET /api/servers/{id}/query: the player count (reference §5.10, scope server.stats). */
export function queryRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { servers } = services;

  // Whether the server can be asked at all. The reference answers 202 for minecraft and 204 for
  // anything else, even a server with no query, and its clients treat any 2xx alike: so a server
  // with nothing to ask is a 204 as there. A server with a query of any type is a 202, which is
  // how our client tells the two apart (the reference's 204 for other types said nothing useful).
  api.head(
    "/api/servers/:id/query",
    { config: { access: "server.stats" }, schema: byId },
    async (request, reply) => {
      const node = await servers.nodeOf(request.params.id);
      const type = await node.query.queryType(request.params.id);
      return reply.status(type ? 202 : 204).send();
    },
  );

  // `{"<type>": {numPlayers, maxPlayers, version, players}}`, or 204 when there is no answer.
  api.get(
    "/api/servers/:id/query",
    { config: { access: "server.stats" }, schema: byId, exposeHeadRoute: false },
    async (request, reply) => {
      const node = await servers.nodeOf(request.params.id);
      const view = await node.query.query(request.params.id);
      return view ?? reply.status(204).send();
    },
  );
}
