import { t } from "@lingui/core/macro";
import type { HistoryRange } from "../../api/statsHistory";
import { formats } from "./format";
import "../../components/controls.css";
import "./stats.css";

const ranges: HistoryRange[] = ["1h", "24h", "7d", "30d"];

/** How far back the charts reach. */
export function RangePicker({
  value,
  onChange,
}: {
  value: HistoryRange;
  onChange: (r: HistoryRange) => void;
}) {
  const { rangeLabel } = formats();
  return (
    <fieldset className="segmented range-picker" aria-label={t`Time range`}>
      {ranges.map((range) => (
        <button
          key={range}
          type="button"
          aria-pressed={value === range}
          data-range={range}
          onClick={() => onChange(range)}
        >
          {rangeLabel(range)}
        </button>
      ))}
    </fieldset>
  );
}
