import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../api/errors";
import { listServers, SERVER_PAGE_SIZE, type Server } from "../../api/servers";
import { user } from "../../state/session";
import { lastKnownServers, rememberServers } from "./serverCache";

export interface ServerListState {
  servers: Server[] | undefined;
  total: number;
  /** True once this visit's own answer arrived (before that `servers` may be the last-known list). */
  fresh: boolean;
  failed: boolean;
  loadingMore: boolean;
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
  const userId = user.value?.id;
  const userRef = useRef(userId);
  userRef.current = userId;

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
        setState({
          servers: answer.servers,
          total: answer.paging.total,
          fresh: true,
          failed: false,
          loadingMore: false,
        });
        const owner = userRef.current;
        if (!name && owner !== undefined) void rememberServers(owner, answer.servers, answer.paging.total);
      })
      .catch(() => live() && setState((s) => ({ ...s, failed: true })));
  }, [name]);

  // The last-known first page, once the account is known (it may still be loading at boot).
  useEffect(() => {
    if (name || userId === undefined) return;
    let live = true;
    void lastKnownServers(userId).then((cached) => {
      if (live && cached) {
        setState((s) => (s.fresh || s.servers ? s : { ...s, servers: cached.servers, total: cached.total }));
      }
    });
    return () => {
      live = false;
    };
  }, [name, userId]);

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

  return { ...state, loadMore };
}
