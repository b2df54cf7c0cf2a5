import { ServerIdParams } from "../wire/servers.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const byId = { params: ServerIdParams };

/** HEAD and GET /api/servers/{id}/query: the player count (reference §5.10, scope server.stats). */
export function queryRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { servers } = services;

  // Whether the server can be asked at all. The reference answers 202 for minecraft and 204 for
  // anything else, even a server with no query; here a server with nothing to ask is a 404, so the
  // client can tell (it treats every 2xx alike).
  api.head(
    "/api/servers/:id/query",
    { config: { access: "server.stats" }, schema: byId },
    async (request, reply) => {
      const node = await servers.nodeOf(request.params.id);
      const type = await node.query.queryType(request.params.id);
      if (!type) return reply.status(404).send();
      return reply.status(type === "minecraft" ? 202 : 204).send();
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
