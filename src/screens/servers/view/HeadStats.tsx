import { i18n } from "@lingui/core";
import { Trans } from "@lingui/react/macro";
import { useMemo } from "react";
import { intlLocale } from "../../../i18n/locales";
import type { KnownStatus } from "../../../offline/knownStatus";
import { online } from "../../../offline/network";
import type { ServerLive } from "../../../state/serverLive";
import { liveStats } from "../../../state/serverStatus";

const MIB = 1024 * 1024;

function useNumber(digits: number) {
  const locale = intlLocale(i18n.locale);
  return useMemo(
    () => new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    [locale, digits],
  );
}

/** The header's CPU and memory figures (server.stats), live; offline, those kept with the last status. */
export function HeadStats({ live, known }: { live: ServerLive; known: KnownStatus | undefined }) {
  const percent = useNumber(1);
  // Offline: the usage kept with the last status (none once it stopped), not figures of unknown age.
  const stats = online.value ? (liveStats(live.id).value ?? live.stats.value) : known?.stats;
  return (
    <dl className="server-stats" data-testid="server-stats">
      <div>
        <dt>
          <Trans>CPU</Trans>
        </dt>
        <dd>
          <bdi>{stats ? `${percent.format(stats.cpu)} %` : "–"}</bdi>
        </dd>
      </div>
      <div>
        <dt>
          <Trans>Memory</Trans>
        </dt>
        <dd>
          {/* Isolated: in a right-to-left page "50 MiB" would otherwise read "MiB 50". */}
          <bdi>{stats ? `${percent.format(stats.memory / MIB)} MiB` : "–"}</bdi>
        </dd>
      </div>
    </dl>
  );
}
