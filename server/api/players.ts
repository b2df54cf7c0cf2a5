import { PlayerActionBody, PlayerActionParams, PlayersView } from "../contract/api/players.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** A server's players (issue 37): GET who is online and the game's lists, POST an action. */
export function playerRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { players } = services;

  // What the Players section shows: the same right as the player count it extends.
  api.get(
    "/api/servers/:id/players",
    {
      config: { access: "server.stats" },
      schema: { params: ServerIdParams, response: { 200: PlayersView } },
    },
    (request) => players.view(request.params.id),
  );

  api.post(
    "/api/servers/:id/players/:action",
    {
      config: { access: "server.players.manage" },
      schema: { params: PlayerActionParams, body: PlayerActionBody },
    },
    async (request, reply) => {
      await players.act(request.params.id, request.params.action, request.body);
      return reply.status(204).send();
    },
  );
}
