import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { isApiError } from "../../api/errors";
import { getServer, getStats, getStatus, type Server } from "../../api/servers";
import { quiet, reportSessionEnd } from "../../app/background";
import { usePolling } from "../../app/usePolling";
import { POLL_MS } from "../../state/live/poller";
import { liveChannel } from "../../state/liveStatus";
import { hasScope } from "../../state/scopes";
import { setServerStats, setServerStatus } from "../../state/serverStatus";
import { holdsOnServer } from "./serverScopes";

const ACTION_SCOPES = ["server.start", "server.stop", "server.kill"] as const;

/**
 * Live bits of the server list, kept cheap: status and usage come pushed over the page's one
 * /api/live socket for the servers listed; only while that socket cannot be had, the servers on
 * screen are polled instead (one GET …/status each, every 5 s while the page is visible, and
 * …/stats of those running, for usage against their limits). A server's own scopes are read only
 * when the global ones do not already grant every list action. `reachable`: false while the list is
 * a kept copy or the panel is out of reach, when nothing is watched or polled (the last known
 * statuses are shown instead).
 */
export function useListLive(servers: readonly Server[] | undefined, reachable = true) {
  const visible = useRef(new Set<string>());
  const readAt = useRef(new Map<string, number>());
  const asked = useRef(new Set<string>());
  const byId = useRef(new Map<string, Server>());
  const [serverScopes, setServerScopes] = useState<Record<string, string[]>>({});
  const scopesNow = useRef(serverScopes);
  scopesNow.current = serverScopes;
  byId.current = new Map((servers ?? []).map((s) => [s.id, s]));
  const globalActions = ACTION_SCOPES.every((s) => hasScope(s)) || hasScope("server.admin");
  const channel = liveChannel();
  const pushed = channel.state.value !== "closed";
  const reachableNow = useRef(reachable);
  reachableNow.current = reachable;
  // Read when asked, not at render: a watch made in this commit has already opened the socket.
  const polling = useCallback(() => reachableNow.current && channel.state.peek() === "closed", [channel]);

  const watched = reachable
    ? (servers ?? [])
        .filter((s) => s.canGetStatus)
        .map((s) => s.id)
        .join(",")
    : "";
  useEffect(() => (watched ? channel.watch(watched.split(",")) : undefined), [channel, watched]);

  const readStatuses = useCallback(async (ids: string[]) => {
    await Promise.all(
      ids.map(async (id) => {
        if (!byId.current.get(id)?.canGetStatus) return;
        readAt.current.set(id, Date.now());
        try {
          const status = await getStatus(id, quiet);
          setServerStatus(id, status);
          // CPU and memory of a running server, with its limits, into the signal the socket fills.
          const stats =
            status.running && holdsOnServer(scopesNow.current[id], "server.stats")
              ? await getStats(id, quiet)
              : undefined;
          setServerStats(id, stats);
        } catch (err) {
          // Said as the live socket says it: the node is what fails, the server's status is not known.
          if (isApiError(err) && err.code === "ErrNodeUnreachable")
            setServerStatus(id, { unreachable: true });
          reportSessionEnd(err);
        }
      }),
    );
  }, []);

  const askScopes = useCallback(
    (ids: string[]) => {
      if (globalActions) return;
      for (const id of ids) {
        if (asked.current.has(id)) continue;
        asked.current.add(id);
        getServer(id, quiet)
          .then((answer) => setServerScopes((all) => ({ ...all, [id]: answer.permissions?.scopes ?? [] })))
          .catch(reportSessionEnd);
      }
    },
    [globalActions],
  );

  const seen = useCallback(
    (ids: string[]) => {
      const now = Date.now();
      if (polling()) void readStatuses(ids.filter((id) => now - (readAt.current.get(id) ?? 0) >= POLL_MS));
      askScopes(ids);
    },
    [readStatuses, askScopes, polling],
  );

  const observer = useMemo(() => {
    if (typeof IntersectionObserver === "undefined") return undefined;
    return new IntersectionObserver((entries) => {
      const appeared: string[] = [];
      for (const entry of entries) {
        const id = (entry.target as HTMLElement).dataset.id;
        if (!id) continue;
        if (entry.isIntersecting) {
          visible.current.add(id);
          appeared.push(id);
        } else visible.current.delete(id);
      }
      if (appeared.length) seen(appeared);
    });
  }, [seen]);

  useEffect(() => () => observer?.disconnect(), [observer]);

  // Without IntersectionObserver every listed server counts as on screen.
  useEffect(() => {
    if (observer || !servers) return;
    for (const s of servers) visible.current.add(s.id);
    seen(servers.map((s) => s.id));
  }, [observer, servers, seen]);

  const register = useCallback(
    (el: HTMLElement | null) => {
      if (el && observer) observer.observe(el);
    },
    [observer],
  );

  const readVisible = useCallback(
    () => readStatuses([...visible.current].filter((id) => byId.current.has(id))),
    [readStatuses],
  );
  // The socket went away (or the panel is back in reach without it): poll from now on, starting at once.
  useEffect(() => {
    if (reachable && !pushed && polling()) void readVisible();
  }, [reachable, pushed, readVisible, polling]);
  usePolling(async () => {
    if (polling()) await readVisible();
  }, POLL_MS);

  /** Re-read one server's status now (after an action). */
  const refresh = useCallback((id: string) => readStatuses([id]), [readStatuses]);

  return { register, serverScopes, refresh };
}
