import { i18n } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useRef, useState } from "react";
import {
  type ActivityFilter,
  type ActivityScope,
  activityExportUrl,
  type ActivityEntry as Entry,
  listActivity,
} from "../../api/activity";
import { pause } from "../../app/pause";
import { useLoad } from "../../app/useLoad";
import { SearchBox } from "../../components/SearchBox";
import { Spinner } from "../../components/Spinner";
import { intlLocale } from "../../i18n/locales";
import { ShowMore } from "../ListParts";
import { ActivityEntry } from "./ActivityEntry";
import { actionLabel, labelledActions } from "./actionLabels";
import "../../components/controls.css";
import "./activity.css";

const PAGE_SIZE = 50;
/** Typing pauses this long before the log is asked again (as the other searches). */
const SEARCH_PAUSE_MS = 500;

const actionList = "activity-action-names";

/** Every action the log knows, by its name in the page's language. */
const actionOptions = (locale: string) =>
  labelledActions()
    .map((code) => [code, actionLabel(code)] as const)
    .sort((a, b) => a[1].localeCompare(b[1], locale));

type Listing = { entries: Entry[]; more: boolean; page: number } | "failed";

/** A day from a date field as the API's time filter; `until` takes the whole day. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const at = new Date(`${day}T00:00:00`);
  if (Number.isNaN(at.getTime())) return undefined;
  if (end) at.setDate(at.getDate() + 1);
  return String(at.getTime());
}

/**
 * One activity log, newest first: everyone's (with filters by user, server and action, and the
 * exports), a server's or one's own. Searches as you type; pages with "Show more".
 */
export function ActivityLog({ scope, filters = false }: { scope: ActivityScope; filters?: boolean }) {
  const [q, setQ] = useState("");
  const [user, setUser] = useState("");
  const [server, setServer] = useState("");
  const [action, setAction] = useState("");
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const [loadingMore, setLoadingMore] = useState(false);
  const locale = intlLocale(i18n.locale);
  const scopeKey = JSON.stringify(scope);

  const filter: ActivityFilter = {
    q: q.trim() || undefined,
    user: user.trim() || undefined,
    server: scope.kind === "all" ? server.trim() || undefined : undefined,
    // A name without a wildcard is taken as a prefix: "server" finds server.start and the rest.
    action: action.trim() ? (action.includes("*") ? action.trim() : `${action.trim()}*`) : undefined,
    since: dayBound(since, false),
    until: dayBound(until, true),
  };
  const filterKey = JSON.stringify(filter);

  // The first read at once; later ones after a pause in typing. `filterKey` and `scopeKey` stand for
  // `filter` and `scope`.
  const asked = useRef(false);
  const read = useLoad(
    async (signal) => {
      if (asked.current) await pause(SEARCH_PAUSE_MS, signal);
      asked.current = true;
      const page = await listActivity(scope, { ...filter, page: 1, limit: PAGE_SIZE });
      return { entries: page.activity, more: page.paging.total > page.activity.length, page: 1 };
    },
    [filterKey, scopeKey],
    { keep: true },
  );
  const setListing = read.setData;
  const listing: Listing | undefined = read.error === undefined ? read.data : "failed";

  const loadMore = async () => {
    if (typeof listing !== "object" || loadingMore) return;
    setLoadingMore(true);
    try {
      const next = await listActivity(scope, { ...filter, page: listing.page + 1, limit: PAGE_SIZE });
      const known = new Set(listing.entries.map((e) => e.id));
      setListing({
        entries: [...listing.entries, ...next.activity.filter((e) => !known.has(e.id))],
        more: next.paging.page * next.paging.pageSize < next.paging.total,
        page: listing.page + 1,
      });
    } catch {
      // the global handler says why
    } finally {
      setLoadingMore(false);
    }
  };

  // The filters' fields: words (the server only over every server's log), then the days.
  const words = [
    { value: user, set: setUser, label: t`User`, testId: "activity-user" },
    scope.kind === "all" && { value: server, set: setServer, label: t`Server`, testId: "activity-server" },
    { value: action, set: setAction, label: t`Action`, testId: "activity-action", list: actionList },
  ].filter((f) => !!f);
  const days = [
    { value: since, set: setSince, label: t`Since` },
    { value: until, set: setUntil, label: t`Until` },
  ];

  return (
    <div className="activity">
      <div className="activity-filters">
        <SearchBox value={q} onValue={setQ} label={t`Search`} testId="activity-search" />
        {filters && (
          <>
            {words.map((f) => (
              <input
                key={f.testId}
                className="input"
                value={f.value}
                onChange={(e) => f.set(e.currentTarget.value)}
                placeholder={f.label}
                aria-label={f.label}
                data-testid={f.testId}
                list={"list" in f ? f.list : undefined}
              />
            ))}
            {/* The actions by name, for the action filter: typing a name offers its code. */}
            <datalist id={actionList}>
              {actionOptions(locale).map(([code, label]) => (
                <option key={code} value={code} label={label} />
              ))}
            </datalist>
            <div className="activity-days">
              {days.map((d) => (
                <label key={d.label} className="activity-day">
                  <span>{d.label}</span>
                  <input
                    className="input"
                    type="date"
                    value={d.value}
                    onChange={(e) => d.set(e.currentTarget.value)}
                  />
                </label>
              ))}
            </div>
          </>
        )}
      </div>
      {filters && (
        <div className="activity-exports">
          <a
            className="btn btn-outline btn-small"
            href={activityExportUrl(scope, "csv", filter)}
            download
            data-testid="activity-csv"
          >
            <Trans>Export CSV</Trans>
          </a>
          <a className="btn btn-outline btn-small" href={activityExportUrl(scope, "jsonl", filter)} download>
            <Trans>Export JSON lines</Trans>
          </a>
        </div>
      )}
      {listing === undefined ? (
        <Spinner />
      ) : listing === "failed" ? (
        <p className="muted">
          <Trans>The activity could not be loaded.</Trans>
        </p>
      ) : listing.entries.length === 0 ? (
        <p className="muted" data-testid="activity-empty">
          <Trans>No activity matches.</Trans>
        </p>
      ) : (
        <>
          <ol className="activity-list" data-testid="activity-list">
            {listing.entries.map((e) => (
              <ActivityEntry key={e.id} entry={e} showServer={scope.kind !== "server"} locale={locale} />
            ))}
          </ol>
          {listing.more && <ShowMore onClick={loadMore} disabled={loadingMore} />}
        </>
      )}
    </div>
  );
}
