import { t } from "@lingui/core/macro";
import { useEffect, useRef, useState } from "react";
import type uPlot from "uplot";
import type { HistoryPoint, HistoryRange } from "../../api/statsHistory";
import { formats, type Metric } from "./format";
import "./stats.css";

/** uPlot and its styles load with the first chart: no other screen (the login page least) carries them. */
let uplotModule: Promise<typeof uPlot> | undefined;
const loadUplot = () =>
  (uplotModule ??= Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(
    ([m]) => m.default,
  ));

/** A theme colour read from its CSS variable, as the canvas understands it, with `alpha`. */
function cssColor(name: string, fallback: string, alpha = 1): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
  const ctx = document.createElement("canvas").getContext("2d");
  if (!ctx) return value;
  ctx.fillStyle = value;
  ctx.fillRect(0, 0, 1, 1);
  const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** Bumps when the theme or the colour scheme changes, so charts redraw in its colours. */
function useThemeTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((n) => n + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ["class", "style", "dir"],
    });
    const scheme = matchMedia("(prefers-color-scheme: dark)");
    scheme.addEventListener("change", bump);
    return () => {
      observer.disconnect();
      scheme.removeEventListener("change", bump);
    };
  }, []);
  return tick;
}

type Column = (number | null)[];

/** The usual spacing of the points in seconds (the median): samples kept at an older interval keep theirs. */
function spacing(points: HistoryPoint[], stepSeconds: number): number {
  const gaps = points.slice(1).map((p, i) => (p.time - points[i].time) / 1000);
  if (gaps.length === 0) return stepSeconds;
  gaps.sort((a, b) => a - b);
  return Math.max(stepSeconds, gaps[Math.floor(gaps.length / 2)]);
}

/** uPlot's columns: time (s), the value, and the span's extremes; a gap (the server stopped) breaks the line. */
function columns(points: HistoryPoint[], metric: Metric, stepSeconds: number): Column[] {
  const every = spacing(points, stepSeconds);
  const time: Column = [];
  const value: Column = [];
  const low: Column = [];
  const high: Column = [];
  let last: number | undefined;
  for (const point of points) {
    const at = point.time / 1000;
    if (last !== undefined && at - last > every * 2.5) {
      time.push(last + every);
      value.push(null);
      low.push(null);
      high.push(null);
    }
    last = at;
    time.push(at);
    value.push(point[metric] ?? null);
    low.push(point.min?.[metric] ?? point[metric] ?? null);
    high.push(point.max?.[metric] ?? point[metric] ?? null);
  }
  return [time, value, low, high];
}

export interface HistoryChartProps {
  label: string;
  metric: Metric;
  range: HistoryRange;
  step: number;
  points: HistoryPoint[];
  /** The top of the value axis when known (a host's memory, a limit); else the data's. */
  max?: number;
}

/**
 * One metric over time with uPlot: the average as a line and, where a point
 * stands for several samples, their lowest and highest as a band. Colours
 * come from the theme's variables; in a right-to-left language time runs
 * from right to left and the value axis stands on the right.
 */
/** The range's length in seconds ("1h", "30d"): parsed, as the contract's table would bring its schema library into this chunk. */
const windowSeconds = (range: HistoryRange) =>
  Number.parseInt(range, 10) * (range.endsWith("h") ? 3600 : 86400);

export function HistoryChart({ label, metric, range, step, points, max }: HistoryChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLParagraphElement>(null);
  const theme = useThemeTick();
  const banded = points.some((p) => p.min && p.max);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `theme` redraws in the theme's new colours
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let stopped = false;
    let resize: ResizeObserver | undefined;
    void loadUplot().then((UPlot) => {
      if (stopped) return;
      const fmt = formats();
      const tick = fmt.tick(range);
      const rtl = document.documentElement.dir === "rtl";
      const line = cssColor("--primary", "#07a7e3");
      const edge = cssColor("--primary", "#07a7e3", 0.35);
      const text = cssColor("--muted", "#5c6670");
      const grid = cssColor("--border", "#d3d9df", 0.7);
      const data = columns(points, metric, step);
      const top = Math.max(max ?? 0, ...(data[3].filter((v) => v !== null) as number[]), 0);
      const axisFont = "12px system-ui, sans-serif";
      // The readout writes each value in its own unit (0.7 MB, not 0 GB); the axis keeps one for all.
      const format = (v: number | null | undefined) =>
        v === null || v === undefined ? "–" : fmt.value(metric, v);
      // The readout above the chart: the point under the cursor, else the latest one.
      const show = (u: uPlot) => {
        const out = readout.current;
        if (!out) return;
        let index = u.cursor.idx ?? -1;
        if (index < 0) {
          index = data[1].length - 1;
          while (index > 0 && data[1][index] === null) index--;
        }
        const at = data[0][index];
        const set = (name: string, text: string) => {
          const part = out.querySelector(`[data-part="${name}"]`);
          if (part) part.textContent = text;
        };
        set("when", at === null || at === undefined ? "" : fmt.moment.format(at * 1000));
        set("value", format(data[1][index]));
        set("min", format(data[2][index]));
        set("max", format(data[3][index]));
      };
      const options: uPlot.Options = {
        width: element.clientWidth || 300,
        height: element.clientWidth < 480 ? 150 : 180,
        scales: {
          // The whole chosen window, ending at the newest point: a panel up a few minutes (one
          // point) would otherwise get a zero-width scale, its ticks all at the epoch's midnight.
          x: {
            time: true,
            dir: rtl ? -1 : 1,
            range: (_u, low, high) => {
              const end = Number.isFinite(high) ? high : Date.now() / 1000;
              return [Math.min(Number.isFinite(low) ? low : end, end - windowSeconds(range)), end];
            },
          },
          y: { range: (_u, _min, high) => [0, Math.max(high, max ?? 0, metric === "cpu" ? 1 : 1) * 1.05] },
        },
        axes: [
          {
            stroke: text,
            font: axisFont,
            grid: { stroke: grid, width: 1 },
            ticks: { stroke: grid, width: 1 },
            values: (_u, splits) => splits.map((s) => tick.format(s * 1000)),
          },
          {
            stroke: text,
            font: axisFont,
            side: rtl ? 1 : 3,
            size: 64,
            grid: { stroke: grid, width: 1 },
            ticks: { stroke: grid, width: 1 },
            values: (_u, splits) => splits.map((s) => fmt.value(metric, s, top)),
          },
        ],
        series: [
          {},
          { label, stroke: line, width: 2, spanGaps: false, points: { show: false } },
          ...(banded
            ? [
                { stroke: edge, width: 1, points: { show: false } },
                { stroke: edge, width: 1, points: { show: false } },
              ]
            : []),
        ],
        bands: banded ? [{ series: [3, 2], fill: cssColor("--primary", "#07a7e3", 0.15) }] : [],
        cursor: { points: { show: false }, drag: { x: false, y: false } },
        // uPlot's own legend would name the time column in English: the readout above replaces it.
        legend: { show: false },
        hooks: { setCursor: [show], ready: [show] },
      };
      plot = new UPlot(options, (banded ? data : data.slice(0, 2)) as uPlot.AlignedData, element);
      resize = new ResizeObserver(() => {
        if (plot && element.clientWidth > 0)
          plot.setSize({ width: element.clientWidth, height: plot.height });
      });
      resize.observe(element);
    });
    return () => {
      stopped = true;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [points, metric, range, step, max, label, banded, theme]);

  return (
    <>
      <p className="history-readout" ref={readout}>
        <span data-part="when" className="muted" />
        <strong data-part="value" />
        {banded && (
          <span className="history-extremes">
            <span className="muted">{t`Lowest`}</span> <span data-part="min" />{" "}
            <span className="muted">{t`Highest`}</span> <span data-part="max" />
          </span>
        )}
      </p>
      <div className="history-chart" ref={box} role="img" aria-label={label} data-metric={metric} />
    </>
  );
}

/** A server's load in a line small enough for a table cell (no library: a polyline). */
export function Sparkline({ points, metric, max }: { points: HistoryPoint[]; metric: Metric; max?: number }) {
  const values = points.map((p) => p[metric]).filter((v): v is number => typeof v === "number");
  if (values.length < 2) return <span className="sparkline-empty" aria-hidden="true" />;
  const top = Math.max(max ?? 0, ...values) || 1;
  const first = points[0].time;
  const span = points[points.length - 1].time - first || 1;
  const path = points
    .filter((p) => typeof p[metric] === "number")
    .map(
      (p) =>
        `${(((p.time - first) / span) * 100).toFixed(2)},${(24 - ((p[metric] as number) / top) * 22).toFixed(2)}`,
    )
    .join(" ");
  return (
    <svg className="sparkline" viewBox="0 0 100 24" preserveAspectRatio="none" aria-hidden="true">
      <polyline points={path} fill="none" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
