import { getServerHistory } from "../../../api/statsHistory";
import { Spinner } from "../../../components/Spinner";
import { HistoryCharts } from "../../stats/HistoryCharts";
import { RangePicker } from "../../stats/RangePicker";
import { useHistory } from "../../stats/useHistory";
import type { SectionProps } from "../sectionProps";

/** Statistics: the server's CPU, memory, disk and players over the chosen range (issue 24). */
export default function StatsSection({ server, active }: SectionProps) {
  const history = useHistory(server.id, active, (range, opts) => getServerHistory(server.id, range, opts));
  return (
    <div className="history-section" data-testid="server-history">
      <div className="history-bar">
        <RangePicker value={history.range} onChange={history.setRange} />
      </div>
      {history.view ? <HistoryCharts view={history.view} /> : <Spinner />}
    </div>
  );
}
