import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { useMemo } from "react";
import type { ServerStats } from "../../api/servers";
import { intlLocale } from "../../i18n/locales";

const MIB = 1024 * 1024;

/** One figure against its limit: "12 / 50 %", with a meter when there is a limit. */
function Figure({ label, used, limit, unit }: { label: string; used: number; limit?: number; unit: string }) {
  const locale = intlLocale(i18n.locale);
  const number = useMemo(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }), [locale]);
  const text = limit
    ? `${number.format(used)} / ${number.format(limit)} ${unit}`
    : `${number.format(used)} ${unit}`;
  return (
    <span className="usage-figure">
      <span className="usage-label">{label}</span>
      {limit ? <meter min={0} max={limit} value={Math.min(used, limit)} aria-label={label} /> : null}
      {/* Isolated: in a right-to-left page "50 MiB" would otherwise read "MiB 50". */}
      <bdi className="usage-value">{text}</bdi>
    </span>
  );
}

/** A running server's CPU and memory in the list, against its limits when it has them. */
export function ServerUsage({ stats }: { stats: ServerStats }) {
  return (
    <span className="server-usage" data-testid="server-usage">
      <Figure label={t`CPU`} used={stats.cpu} limit={stats.limits?.cpuPercent} unit="%" />
      <Figure label={t`Memory`} used={stats.memory / MIB} limit={stats.limits?.memoryMiB} unit="MiB" />
    </span>
  );
}
