import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Link } from "wouter";
import { getNodeHistory, type NodeHistoryAnswer } from "../../api/statsHistory";
import { Panel } from "../../components/Panel";
import { Spinner } from "../../components/Spinner";
import { formats } from "../stats/format";
import { Sparkline } from "../stats/HistoryChart";
import { HistoryCharts } from "../stats/HistoryCharts";
import { RangePicker } from "../stats/RangePicker";
import { useHistory } from "../stats/useHistory";
import "../stats/stats.css";

/** Each server's CPU and memory side by side: a sparkline and the latest value. */
function ServerLoad({ servers }: { servers: NodeHistoryAnswer["servers"] }) {
  const fmt = formats();
  const latest = (s: NodeHistoryAnswer["servers"][number]) => s.points[s.points.length - 1];
  const memoryTop = Math.max(0, ...servers.flatMap((s) => s.points.map((p) => p.memory)));
  return (
    <table className="server-load" data-testid="server-load">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Name</Trans>
          </th>
          <th scope="col">{t`CPU`}</th>
          <th scope="col">{t`Memory`}</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((s) => (
          <tr key={s.id}>
            <th scope="row">
              <Link href={`/servers/${encodeURIComponent(s.id)}`}>{s.name}</Link>
            </th>
            <td>
              <span className="load-cell">
                <Sparkline points={s.points} metric="cpu" max={100} />
                <span className="load-value">{latest(s) ? fmt.value("cpu", latest(s).cpu) : "–"}</span>
              </span>
            </td>
            <td>
              <span className="load-cell">
                <Sparkline points={s.points} metric="memory" max={memoryTop} />
                <span className="load-value">{latest(s) ? fmt.value("memory", latest(s).memory) : "–"}</span>
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The node's own CPU, memory and disk over time, and its servers' load (issue 24). */
export default function NodeHistory({ id }: { id: number }) {
  const history = useHistory(String(id), true, (range, opts) => getNodeHistory(id, range, opts));
  const view = history.view;
  return (
    <Panel title={<Trans>Resource history</Trans>} className="node-history">
      <div className="history-bar">
        <RangePicker value={history.range} onChange={history.setRange} />
      </div>
      {!view ? (
        <Spinner />
      ) : (
        <>
          <HistoryCharts
            view={view}
            maxima={{ cpu: 100, memory: view.totals.memory, disk: view.totals.disk }}
          />
          {view.servers.length > 0 && (
            <>
              <h2 className="small-title">
                <Trans>Load by server</Trans>
              </h2>
              <ServerLoad servers={view.servers} />
            </>
          )}
        </>
      )}
    </Panel>
  );
}
