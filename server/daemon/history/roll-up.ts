import type { HistoryPoint, Metrics } from "../../contract/node/history-wire.ts";

/** A stored point: `n` is how many raw samples it stands for (1 when absent). */
export interface StoredPoint extends HistoryPoint {
  n?: number;
}

const metricNames = ["cpu", "memory", "disk", "players"] as const;
type MetricName = (typeof metricNames)[number];

/** Bytes are whole; percentages and player averages keep two decimals. */
const round: Record<MetricName, (value: number) => number> = {
  cpu: (v) => Math.round(v * 100) / 100,
  memory: Math.round,
  disk: Math.round,
  players: (v) => Math.round(v * 100) / 100,
};

interface Accumulator {
  weight: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * Merges points into spans of `spanMs` aligned to the Unix epoch (whole UTC
 * hours for an hourly roll-up): each span's values are the averages of the
 * samples in it, weighted by how many each point stands for, and `min` /
 * `max` the extremes (a point that is itself a roll-up brings its own). A
 * metric absent from every point of a span stays absent.
 * Points must come in time order; the answer does too.
 */
export function rollUp(points: readonly StoredPoint[], spanMs: number): StoredPoint[] {
  const merged: StoredPoint[] = [];
  let start = Number.NaN;
  let count = 0;
  let sums = new Map<MetricName, Accumulator>();
  const close = () => {
    if (count === 0) return;
    const avg: Partial<Metrics> = {};
    const min: Partial<Metrics> = {};
    const max: Partial<Metrics> = {};
    for (const name of metricNames) {
      const acc = sums.get(name);
      if (!acc) continue;
      avg[name] = round[name](acc.sum / acc.weight);
      min[name] = acc.min;
      max[name] = acc.max;
    }
    merged.push({ time: start, ...(avg as Metrics), min: min as Metrics, max: max as Metrics, n: count });
  };
  for (const point of points) {
    const span = Math.floor(point.time / spanMs) * spanMs;
    if (span !== start) {
      close();
      start = span;
      count = 0;
      sums = new Map();
    }
    const weight = point.n ?? 1;
    count += weight;
    for (const name of metricNames) {
      const value = point[name];
      if (value === undefined) continue;
      const low = point.min?.[name] ?? value;
      const high = point.max?.[name] ?? value;
      const acc = sums.get(name);
      if (!acc) sums.set(name, { weight, sum: value * weight, min: low, max: high });
      else {
        acc.weight += weight;
        acc.sum += value * weight;
        acc.min = Math.min(acc.min, low);
        acc.max = Math.max(acc.max, high);
      }
    }
  }
  close();
  return merged;
}

/** The points of a chart at most `maxPoints` long: merged into wider spans when there are more. */
export function thinOut(
  points: readonly StoredPoint[],
  stepMs: number,
  rangeMs: number,
  maxPoints: number,
): { points: StoredPoint[]; stepMs: number } {
  if (points.length <= maxPoints) return { points: [...points], stepMs };
  // A whole number of steps per span, so spans line up with the samples' own spacing.
  const spanMs = Math.ceil(rangeMs / maxPoints / stepMs) * stepMs;
  return { points: rollUp(points, spanMs), stepMs: spanMs };
}
