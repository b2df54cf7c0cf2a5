import { useCallback, useEffect, useRef, useState } from "react";
import { canQuery, getQuery, type QueryView } from "../../../api/query";
import { quiet, reportSessionEnd } from "../../../app/background";
import type { ServerStatus } from "../../../state/serverStatus";

/** How often a shown query section asks again (the reference client's cadence). */
export const QUERY_POLL_MS = 30_000;
/** After a start the game needs a moment, and the node keeps a failed answer ~5 s. */
export const QUERY_AFTER_START_MS = 6000;

/** Whether the server can be asked at all (HEAD): unknown until checked. */
export type QuerySupport = "checking" | "yes" | "no" | "failed";

export interface QueryResult {
  /** Undefined: the server did not answer (not running, or silent). */
  view: QueryView | undefined;
  /** When the answer (or the failure) came, ms since the epoch. */
  at: number;
  /** The request itself failed (the node could not be reached, for instance). */
  failed: boolean;
}

export interface ServerQuery {
  support: QuerySupport;
  result: QueryResult | undefined;
  loading: boolean;
  refresh(): void;
  recheck(): void;
}

/**
 * The player count of one server: a HEAD first to learn whether there is a
 * query at all, then GET at once and every 30 s while the section is shown
 * and the page visible; nothing while hidden or unmounted. A start or stop
 * the live status reports asks again (after a start, a little later).
 */
export function useServerQuery(id: string, active: boolean, status: ServerStatus): ServerQuery {
  const [support, setSupport] = useState<QuerySupport>("checking");
  const [result, setResult] = useState<QueryResult>();
  const [loading, setLoading] = useState(false);
  const alive = useRef(true);
  const asked = useRef(0);
  const lastAt = useRef(0);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const recheck = useCallback(() => {
    setSupport("checking");
    canQuery(id, quiet)
      .then((yes) => alive.current && setSupport(yes ? "yes" : "no"))
      .catch((err) => {
        reportSessionEnd(err);
        if (alive.current) setSupport("failed");
      });
  }, [id]);

  useEffect(() => {
    setResult(undefined);
    lastAt.current = 0;
    recheck();
  }, [recheck]);

  const refresh = useCallback(async () => {
    const mine = ++asked.current;
    setLoading(true);
    let next: QueryResult;
    try {
      next = { view: await getQuery(id, quiet), at: Date.now(), failed: false };
    } catch (err) {
      reportSessionEnd(err);
      next = { view: undefined, at: Date.now(), failed: true };
    }
    // Only the latest question's answer counts (a refresh click may overtake a poll).
    if (!alive.current || mine !== asked.current) return;
    lastAt.current = next.at;
    setResult(next);
    setLoading(false);
  }, [id]);

  // Poll while shown: at once when the last answer is older than a round, then every round.
  useEffect(() => {
    if (!active || support !== "yes") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(tick, ms);
    };
    const tick = async () => {
      if (document.hidden) return; // picked up again when the page shows
      await refresh();
      schedule(QUERY_POLL_MS);
    };
    const due = () => Math.max(0, lastAt.current + QUERY_POLL_MS - Date.now());
    schedule(due());
    const onVisibility = () => {
      if (!document.hidden) schedule(due());
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [active, support, refresh]);

  // A start or stop seen while shown changes the answer: ask again rather than wait a round.
  const seenStatus = useRef(status);
  useEffect(() => {
    const before = seenStatus.current;
    seenStatus.current = status;
    if (before === status || before === "unknown" || !active || support !== "yes") return;
    if (status === "offline") {
      void refresh();
      return;
    }
    if (status !== "online") return;
    const timer = setTimeout(() => void refresh(), QUERY_AFTER_START_MS);
    return () => clearTimeout(timer);
  }, [status, active, support, refresh]);

  return { support, result, loading, refresh: () => void refresh(), recheck };
}
