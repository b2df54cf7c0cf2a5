import { ServerHostingLimits, ServerHostingLimitsBody } from "../contract/api/server-limits.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** A server's hosting limits (issue 36): read by whoever may view it, set by administrators. */
export function serverLimitRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { serverLimits } = services;

  api.get(
    "/api/servers/:id/limits",
    {
      config: { access: "server.view" },
      schema: { params: ServerIdParams, response: { 200: ServerHostingLimits } },
    },
    (request) => serverLimits.get(request.params.id),
  );

  api.put(
    "/api/servers/:id/limits",
    {
      config: { access: "admin" },
      schema: {
        params: ServerIdParams,
        body: ServerHostingLimitsBody,
        response: { 200: ServerHostingLimits },
      },
    },
    (request) => serverLimits.set(request.params.id, request.body),
  );
}
