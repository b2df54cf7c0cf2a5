import { type Static, Type } from "typebox";

/** Shapes that cross the panel↔node seam for resource history (issue 24). */

export const historyRanges = ["1h", "24h", "7d", "30d"] as const;
export type HistoryRange = (typeof historyRanges)[number];

/** How far back each range reaches, in milliseconds. */
export const rangeMs: Record<HistoryRange, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
};

/** `?range=`: how far back the chart reaches. */
export const HistoryRange = Type.Enum(historyRanges);
export const HistoryRangeQuery = Type.Object({ range: HistoryRange });

/**
 * What one sample measures. cpu: percent of one core (a server) or of the
 * whole host (the node); memory and disk: bytes; players: where the server's
 * query answers. disk and players are absent when they were not measured.
 */
const metricFields = {
  cpu: Type.Number({ description: "percent of one core (a server) or of the whole host (a node)" }),
  memory: Type.Number({ description: "bytes" }),
  disk: Type.Optional(Type.Number({ description: "bytes; absent when not measured" })),
  players: Type.Optional(Type.Number({ description: "absent when the server's query does not answer" })),
};
export const Metrics = Type.Object(metricFields);
export type Metrics = Static<typeof Metrics>;

/**
 * One point of a chart, at `time` (Unix ms, the start of the span it covers).
 * A raw sample has the measured values; a point that stands for several
 * samples (an hourly roll-up, or a span merged to keep an answer small) has
 * their average as its values and their extremes in `min` and `max`.
 */
export const HistoryPoint = Type.Object({
  time: Type.Number({ description: "Unix milliseconds: the start of the span the point covers" }),
  ...metricFields,
  min: Type.Optional(Metrics),
  max: Type.Optional(Metrics),
});
export type HistoryPoint = Static<typeof HistoryPoint>;

/** The fields of a history, for shapes that add their own beside them (the API's node history). */
export const historyFields = {
  range: HistoryRange,
  /** Seconds each point stands for (the sample interval for raw samples). */
  step: Type.Number({ description: "seconds each point stands for" }),
  points: Type.Array(HistoryPoint),
};
export const HistoryView = Type.Object(historyFields);
export type HistoryView = Static<typeof HistoryView>;

/** The node's size: its cores, memory and the file system holding its data. */
export const NodeTotals = Type.Object({
  cpus: Type.Integer(),
  memory: Type.Number({ description: "bytes" }),
  disk: Type.Number({ description: "bytes of the file system holding the node's data" }),
});

/** The node's own history, its size, and each of its servers' history in fewer points (an overview). */
export const NodeHistoryView = Type.Object({
  ...historyFields,
  totals: NodeTotals,
  servers: Type.Record(Type.String(), HistoryView),
});
export type NodeHistoryView = Static<typeof NodeHistoryView>;

/** What the panel asks of a node about past resource use; LocalNode and RemoteNode both provide it. */
export interface NodeHistory {
  /** A server's history; ErrServerNotFound for a server the node does not hold. */
  serverHistory(id: string, range: HistoryRange): Promise<HistoryView>;
  nodeHistory(range: HistoryRange): Promise<NodeHistoryView>;
}
