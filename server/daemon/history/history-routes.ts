import { Type } from "typebox";
import { historyRanges } from "../../contract/node/history-wire.ts";
import type { Router } from "../http/router.ts";
import type { HistoryOps } from "./history-ops.ts";

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Range = Type.Object({ range: Type.Union(historyRanges.map((r) => Type.Literal(r))) });

/** The daemon's history routes, spoken by the panel's RemoteHistory. */
export function daemonHistoryRoutes(api: Router, ops: HistoryOps): void {
  api.get("/daemon/server/:id/stats/history", { params: Id, query: Range }, (request) =>
    ops.serverHistory(request.params.id, request.query.range),
  );
  api.get("/daemon/stats/history", { query: Range }, (request) => ops.nodeHistory(request.query.range));
}
