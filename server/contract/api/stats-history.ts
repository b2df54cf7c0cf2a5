import { type Static, Type } from "typebox";
import { HistoryView, historyFields, historyRanges, NodeTotals } from "../node/history-wire.ts";

/** `?range=`: how far back the chart reaches (default one hour). */
export const HistoryQuery = Type.Object({
  range: Type.Optional(Type.Enum(historyRanges, { default: "1h" })),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

/** GET /api/servers/{id}/stats/history: the node's answer as it is. */
export { HistoryView };

/**
 * GET /api/nodes/{id}/stats/history: the node's own history and its servers' in fewer points,
 * each server named (the node knows them by id only).
 */
export const NodeHistoryAnswer = Type.Object({
  ...historyFields,
  totals: NodeTotals,
  servers: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...historyFields })),
});
export type NodeHistoryAnswer = Static<typeof NodeHistoryAnswer>;
