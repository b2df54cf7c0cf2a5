import { useEffect, useMemo, useState } from "react";
import { isApiError } from "../../../api/errors";
import { getServer, type Server } from "../../../api/servers";
import { type KnownStatus, keepStatuses, useKnownStatuses } from "../../../offline/knownStatus";
import { type Known, type KnownServerPage, lastKnownServerPage } from "../../../offline/lastKnown";
import { backOnline, online } from "../../../offline/network";
import { liveChannel } from "../../../state/liveStatus";
import { ServerLive } from "../../../state/serverLive";
import { type ServerCan, serverCan } from "../serverScopes";
import { useKeepServerPage } from "../useKeepServerPage";

export interface OpenServerPage {
  server?: Server;
  /** A section changed the server: the header shows it at once. */
  patchServer: (changes: Partial<Server>) => void;
  /** The user's scopes on this server (undefined until the server is read). */
  scopes?: string[];
  can: ServerCan;
  /** The panel says there is no such server, or not for this user. */
  missing: boolean;
  /** The page's one live connection, once the server is read. */
  live?: ServerLive;
  /** What the page last showed, when the panel cannot be reached (issue 11); "none" if never seen here. */
  kept?: Known<KnownServerPage> | "none";
  /** Offline: the last status delivered, with its time. */
  known?: KnownStatus;
}

/**
 * One server's page: the server and the user's scopes on it, its live connection (opened here,
 * started after the console subscribed), and offline what the page last showed.
 * The caller's children subscribe before the connection starts: React runs their effects first.
 */
export function useServerPage(id: string): OpenServerPage {
  const [server, setServer] = useState<Server>();
  const [scopes, setScopes] = useState<string[]>();
  const [missing, setMissing] = useState(false);
  const [live, setLive] = useState<ServerLive>();
  const [kept, setKept] = useState<Known<KnownServerPage> | "none">();
  // Showing the kept page: read again once the panel is back in reach.
  const again = kept ? backOnline.value : 0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `again` (back online) is a re-read trigger
  useEffect(() => {
    let alive = true;
    setServer(undefined);
    setMissing(false);
    getServer(id, { exempt: [400, 403, 404] })
      .then((answer) => {
        if (!alive) return;
        setKept(undefined);
        setServer(answer.server);
        setScopes(answer.permissions?.scopes ?? []);
      })
      .catch((err) => {
        if (!alive || !isApiError(err)) return;
        if ([400, 403, 404].includes(err.status ?? 0)) setMissing(true);
        else if (err.status === undefined) {
          // No answer (offline): what this page last showed, if it was seen here before.
          void lastKnownServerPage(id).then((page) => alive && setKept(page ?? "none"));
        }
      });
    return () => {
      alive = false;
    };
  }, [id, again]);

  const can = useMemo(() => serverCan(scopes), [scopes]);
  const known = useKnownStatuses(!online.value)?.[id];
  const channels = scopes && {
    console: can("server.console"),
    status: can("server.status"),
    stats: can("server.stats"),
  };
  const channelKey = channels ? `${channels.console}${channels.status}${channels.stats}` : "";

  // One live connection while the view is open; closed deliberately on leaving.
  // biome-ignore lint/correctness/useExhaustiveDependencies: channelKey stands for `channels`
  useEffect(() => {
    if (!channels || !server) return;
    const l = new ServerLive(id, { channels });
    setLive(l);
    return () => {
      l.close();
      setLive(undefined);
    };
  }, [id, channelKey, !!server]);
  // The header's status and the figures come over the page's live socket too (shared with the list).
  const watchLive = !!(channels?.status || channels?.stats);
  useEffect(() => (watchLive ? liveChannel().watch([id]) : undefined), [id, watchLive]);
  // Subscribes to the console before start() below, so it sees the backlog too.
  useKeepServerPage(server, scopes, live, !!channels?.console);
  useEffect(keepStatuses, []);
  // Started after the console (a child) subscribed, so the backlog reaches it.
  useEffect(() => {
    live?.start();
  }, [live]);

  const patchServer = (changes: Partial<Server>) => setServer((s) => s && { ...s, ...changes });
  return { server, patchServer, scopes, can, missing, live, kept, known };
}
