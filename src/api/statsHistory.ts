import type { NodeHistoryAnswer } from "../../server/contract/api/stats-history.ts";
import type { HistoryPoint, HistoryRange, HistoryView } from "../../server/contract/node/history-wire";
import { type CallOptions, get } from "./client";

// Resource history (issue 24): kept by each node, charted on the server's statistics section and the node view.

export type { HistoryPoint, HistoryRange, HistoryView, NodeHistoryAnswer };

export const getServerHistory = (id: string, range: HistoryRange, opts: CallOptions = {}) =>
  get<HistoryView>(`/api/servers/${encodeURIComponent(id)}/stats/history`, { ...opts, query: { range } });

export const getNodeHistory = (id: number, range: HistoryRange, opts: CallOptions = {}) =>
  get<NodeHistoryAnswer>(`/api/nodes/${id}/stats/history`, { ...opts, query: { range } });
