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

/**
 * What one sample measures. cpu: percent of one core (a server) or of the
 * whole host (the node); memory and disk: bytes; players: where the server's
 * query answers. disk and players are absent when they were not measured.
 */
export interface Metrics {
  cpu: number;
  memory: number;
  disk?: number;
  players?: number;
}

/**
 * One point of a chart, at `time` (Unix ms, the start of the span it covers).
 * A raw sample has the measured values; a point that stands for several
 * samples (an hourly roll-up, or a span merged to keep an answer small) has
 * their average as its values and their extremes in `min` and `max`.
 */
export interface HistoryPoint extends Metrics {
  time: number;
  min?: Metrics;
  max?: Metrics;
}

export interface HistoryView {
  range: HistoryRange;
  /** Seconds each point stands for (the sample interval for raw samples). */
  step: number;
  points: HistoryPoint[];
}

/** The node's own history, its size, and each of its servers' history in fewer points (an overview). */
export interface NodeHistoryView extends HistoryView {
  totals: { cpus: number; memory: number; disk: number };
  servers: Record<string, HistoryView>;
}

/** What the panel asks of a node about past resource use; LocalNode and RemoteNode both provide it. */
export interface NodeHistory {
  /** A server's history; ErrServerNotFound for a server the node does not hold. */
  serverHistory(id: string, range: HistoryRange): Promise<HistoryView>;
  nodeHistory(range: HistoryRange): Promise<NodeHistoryView>;
}
