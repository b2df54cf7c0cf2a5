import { useCallback, useEffect, useRef, useState } from "react";
import { lastKnownAt } from "../../api/client";
import { isApiError } from "../../api/errors";
import { listServers, SERVER_PAGE_SIZE, type Server } from "../../api/servers";
import { useLoad } from "../../app/useLoad";
import { lastKnown, remember } from "../../offline/lastKnown";
import { backOnline } from "../../offline/network";

export interface ServerListState {
  servers: Server[] | undefined;
  total: number;
  /** True once this visit's own answer arrived (before that `servers` may be the last-known list). */
  fresh: boolean;
  failed: boolean;
  loadingMore: boolean;
  /** When the shown first page was read (the last-known one's own time until a fresh one arrives). */
  at?: number;
}

/**
 * Pages of GET /api/servers (20 a page, "load more" appends), filtered by `name` (sent as
 * *text*). The unfiltered first page is remembered and shown at once on the next visit.
 */
export function useServerList(name: string): ServerListState & { loadMore: () => void } {
  const [state, setState] = useState<ServerListState>({
    servers: undefined,
    total: 0,
    fresh: false,
    failed: false,
    loadingMore: false,
  });
  const page = useRef(1);
  const generation = useRef(0);
  const again = backOnline.value;

  // Read at once, on a new search, and again when the panel is back in reach.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` (back online) is a re-read trigger
  useEffect(() => {
    const mine = ++generation.current;
    const live = () => mine === generation.current;
    page.current = 1;
    setState((s) => ({
      ...s,
      fresh: false,
      failed: false,
      loadingMore: false,
      servers: name ? undefined : s.servers,
    }));
    listServers({ page: 1, limit: SERVER_PAGE_SIZE, name })
      .then((answer) => {
        if (!live()) return;
        // Offline, the service worker answers with its last-known copy: shown with its age.
        const kept = lastKnownAt(answer);
        setState({
          servers: answer.servers,
          total: answer.paging.total,
          fresh: kept === undefined,
          failed: false,
          loadingMore: false,
          at: kept ?? Date.now(),
        });
        if (!name && kept === undefined)
          void remember("servers", { servers: answer.servers, total: answer.paging.total });
      })
      .catch(() => live() && setState((s) => ({ ...s, failed: true })));
  }, [name, again]);

  // The last-known first page (kept per account, known offline too), until a page is shown.
  const cached = useLoad(!name && (() => lastKnown("servers")), [name]).data;

  const loadMore = useCallback(() => {
    const mine = generation.current;
    const next = page.current + 1;
    setState((s) => ({ ...s, loadingMore: true }));
    listServers({ page: next, limit: SERVER_PAGE_SIZE, name })
      .then((answer) => {
        if (mine !== generation.current) return;
        page.current = next;
        setState((s) => {
          const seen = new Set((s.servers ?? []).map((x) => x.id));
          const added = answer.servers.filter((x) => !seen.has(x.id));
          return {
            ...s,
            servers: [...(s.servers ?? []), ...added],
            total: answer.paging.total,
            loadingMore: false,
          };
        });
      })
      .catch((err) => {
        if (mine === generation.current) setState((s) => ({ ...s, loadingMore: false }));
        if (!isApiError(err)) throw err;
      });
  }, [name]);

  if (cached && !state.fresh && !state.servers) {
    return { ...state, servers: cached.value.servers, total: cached.value.total, at: cached.at, loadMore };
  }
  return { ...state, loadMore };
}
