import {
  type HistoryRange,
  HistoryView,
  type NodeHistory,
  NodeHistoryView,
} from "../contract/node/history-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's resource history, through the daemon's /daemon/…/stats/history routes. */
export class RemoteHistory implements NodeHistory {
  constructor(readonly http: NodeHttp) {}

  serverHistory(id: string, range: HistoryRange): Promise<HistoryView> {
    return this.http.call("GET", `/daemon/server/${encodeURIComponent(id)}/stats/history?range=${range}`, {
      answer: HistoryView,
    });
  }

  nodeHistory(range: HistoryRange): Promise<NodeHistoryView> {
    return this.http.call("GET", `/daemon/stats/history?range=${range}`, { answer: NodeHistoryView });
  }
}
