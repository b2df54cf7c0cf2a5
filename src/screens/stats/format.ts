import { i18n } from "@lingui/core";
import type { HistoryRange } from "../../api/statsHistory";
import { intlLocale } from "../../i18n/locales";

export type Metric = "cpu" | "memory" | "disk" | "players";

const byteUnits = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** Numbers and times in the reader's language (units and dates need no catalog entries). */
export function formats() {
  const locale = intlLocale(i18n.locale);
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const bytesIn = byteUnits.map(
    (unit) =>
      new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }),
  );
  /** Bytes in the unit that suits `scale` (the largest value shown), so an axis keeps one unit. */
  const bytes = (value: number, scale = value) => {
    const power = Math.max(0, Math.min(byteUnits.length - 1, Math.floor(Math.log10(Math.max(scale, 1)) / 3)));
    return bytesIn[power].format(value / 1000 ** power);
  };
  return {
    locale,
    value(metric: Metric, value: number, scale?: number): string {
      if (metric === "cpu") return percent.format(value / 100);
      if (metric === "players") return count.format(value);
      return bytes(value, scale);
    },
    /** Axis ticks: the time of day for a day or less, the date beyond. */
    tick: (range: HistoryRange) =>
      new Intl.DateTimeFormat(
        locale,
        range === "1h" || range === "24h" ? { timeStyle: "short" } : { month: "short", day: "numeric" },
      ),
    moment: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }),
    /** "1 h", "30 d": the range's length as the reader writes it. */
    rangeLabel(range: HistoryRange): string {
      const unit = range.endsWith("h") ? "hour" : "day";
      return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "narrow" }).format(
        Number.parseInt(range, 10),
      );
    },
  };
}
