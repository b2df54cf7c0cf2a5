import { useEffect, useRef } from "react";

/**
 * Runs `run` every `ms` while the component is mounted and the page is visible (a phone in a
 * pocket polls nothing); on becoming visible again it runs at once. One run at a time; a new `restartOn` value
 * starts the loop over.
 */
export function usePolling(run: () => Promise<unknown>, ms: number, restartOn?: unknown): void {
  const latest = useRef(run);
  latest.current = run;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `restartOn` is the caller's restart trigger
  useEffect(() => {
    let stopped = false;
    let busy = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      if (!stopped && !document.hidden) timer = setTimeout(tick, ms);
    };
    const tick = async () => {
      if (stopped || busy || document.hidden) return;
      busy = true;
      try {
        await latest.current();
      } catch {
        // the next round tries again
      } finally {
        busy = false;
      }
      schedule();
    };
    const onVisibility = () => {
      if (!document.hidden) void tick();
    };
    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [ms, restartOn]);
}
