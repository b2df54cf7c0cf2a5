import {
  HistoryView,
  NodeHistoryView,
  HistoryRangeQuery as Range,
} from "../../contract/node/history-wire.ts";
import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import type { Router } from "../http/router.ts";
import type { HistoryOps } from "./history-ops.ts";

/** The daemon's history routes, spoken by the panel's RemoteHistory. */
export function daemonHistoryRoutes(api: Router, ops: HistoryOps): void {
  api.get("/daemon/server/:id/stats/history", { params: Id, query: Range, answer: HistoryView }, (request) =>
    ops.serverHistory(request.params.id, request.query.range),
  );
  api.get("/daemon/stats/history", { query: Range, answer: NodeHistoryView }, (request) =>
    ops.nodeHistory(request.query.range),
  );
}
