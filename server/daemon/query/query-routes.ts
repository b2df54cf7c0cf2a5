import { QueryView, queryTypeHeader } from "../../contract/node/query-wire.ts";
import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import type { Router } from "../http/router.ts";
import type { QueryOps } from "./query-ops.ts";

/**
 * The daemon's query routes under /daemon/server/{id}/query, spoken by the
 * panel's RemoteQuery: HEAD answers 2xx with the type when the server can be
 * asked and 404 when not; GET answers the view, or 204 for no answer.
 */
export function daemonQueryRoutes(api: Router, ops: QueryOps): void {
  const path = "/daemon/server/:id/query";

  api.head(path, { params: Id }, async (request, reply) => {
    const type = await ops.queryType(request.params.id);
    if (!type) return reply.status(404).send();
    return reply.header(queryTypeHeader, type).status(204).send();
  });
  api.get(path, { params: Id, answer: QueryView }, async (request, reply) => {
    const view = await ops.query(request.params.id);
    return view ? view : reply.status(204).send();
  });
}
