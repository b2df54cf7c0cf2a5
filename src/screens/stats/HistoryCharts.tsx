import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import type { HistoryView } from "../../api/statsHistory";
import type { Metric } from "./format";
import { HistoryChart } from "./HistoryChart";

/** The charts of one history answer, one per metric that has values; a note when there are none yet. */
export function HistoryCharts({
  view,
  maxima = {},
}: {
  view: HistoryView;
  maxima?: Partial<Record<Metric, number>>;
}) {
  if (view.points.length === 0) {
    return (
      <p className="muted" data-testid="history-empty">
        <Trans>No samples yet. The node records them while the server runs.</Trans>
      </p>
    );
  }
  const labels: Record<Metric, string> = {
    cpu: t`CPU`,
    memory: t`Memory`,
    disk: t`Disk`,
    players: t`Players`,
  };
  const shown = (Object.keys(labels) as Metric[]).filter((m) => view.points.some((p) => p[m] !== undefined));
  return (
    <div className="history-grid">
      {shown.map((metric) => (
        <div key={metric}>
          <h2>{labels[metric]}</h2>
          <HistoryChart
            label={labels[metric]}
            metric={metric}
            range={view.range}
            step={view.step}
            points={view.points}
            max={maxima[metric]}
          />
        </div>
      ))}
    </div>
  );
}
