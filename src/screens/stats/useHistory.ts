import { useCallback, useEffect, useRef, useState } from "react";
import type { HistoryRange } from "../../api/statsHistory";
import { quiet, reportSessionEnd } from "../../app/background";
import { usePolling } from "../../app/usePolling";

/**
 * A history answer for the chosen range: fetched when shown or when the
 * range changes, then again as often as new points can appear (never more
 * than every 10 s); nothing while hidden.
 */
export function useHistory<T extends { step: number }>(
  key: string,
  active: boolean,
  read: (range: HistoryRange, opts: typeof quiet) => Promise<T>,
) {
  const [range, setRange] = useState<HistoryRange>("1h");
  const [view, setView] = useState<T>();
  const [failed, setFailed] = useState(false);
  const asked = useRef(0);
  const latest = useRef(read);
  latest.current = read;

  const load = useCallback(async () => {
    const ask = ++asked.current;
    try {
      const answer = await latest.current(range, quiet);
      if (ask !== asked.current) return;
      setView(answer);
      setFailed(false);
    } catch (err) {
      reportSessionEnd(err);
      if (ask === asked.current) setFailed(true);
    }
  }, [range]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what is charted
  useEffect(() => {
    if (active) void load();
  }, [active, load, key]);

  const every = Math.max(10, view?.step ?? 30) * 1000;
  usePolling(async () => active && load(), every, `${key}:${range}:${active}`);

  const choose = (next: HistoryRange) => {
    if (next === range) return;
    setView(undefined);
    setRange(next);
  };
  return { range, setRange: choose, view, failed };
}
