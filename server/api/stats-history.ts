import { NodeIdParams } from "../contract/api/nodes.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { HistoryQuery, HistoryView, NodeHistoryAnswer } from "../contract/api/stats-history.ts";
import { StatsHistory } from "../panel/stats-history.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Resource history (issue 24): a server's under the live stats' scope, a node's for those who see nodes. */
export function statsHistoryRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const history = new StatsHistory(services.db, services.servers, services.nodes);

  api.get(
    "/api/servers/:id/stats/history",
    {
      config: { access: "server.stats" },
      schema: { params: ServerIdParams, querystring: HistoryQuery, response: { 200: HistoryView } },
    },
    (request) => history.server(request.params.id, request.query.range ?? "1h"),
  );

  api.get(
    "/api/nodes/:id/stats/history",
    {
      config: { access: "nodes.view" },
      schema: { params: NodeIdParams, querystring: HistoryQuery, response: { 200: NodeHistoryAnswer } },
    },
    (request) => history.node(request.params.id, request.query.range ?? "1h"),
  );
}
