import { type Signal, signal } from "@preact/signals-react";
import type { ServerStats, ServerStatusAnswer } from "../api/servers";

// A status signal per server (spec §4, reference §4), shared by the list, the server view and
// whatever feeds them: the /api/live channel, a server's own socket, or polling. Every delivery
// goes through setServerStatus / setServerStats, so one listener sees all news (the offline copy).

/**
 * `starting`: running, but an imported egg's done line has not appeared in its console yet;
 * `unreachable`: the server's node cannot be reached, so its status is not known.
 */
export type ServerStatus = "unknown" | "unreachable" | "installing" | "starting" | "online" | "offline";
/** A status as the panel answers it, or word that the server's node cannot be reached (/api/live). */
export type StatusNews = Partial<ServerStatusAnswer> & { unreachable?: boolean };

/** installing wins, then running (starting until its done line); before any answer the status is unknown (spec §4). */
export function statusOf(answer: StatusNews | undefined): ServerStatus {
  if (!answer) return "unknown";
  if (answer.unreachable) return "unreachable";
  if (answer.installing) return "installing";
  if (!answer.running) return "offline";
  return answer.starting ? "starting" : "online";
}

/** One signal per server id, made on first use. */
function signalsById<T>(initial: T): (id: string) => Signal<T> {
  const all = new Map<string, Signal<T>>();
  return (id) => {
    let s = all.get(id);
    if (!s) {
      s = signal<T>(initial);
      all.set(id, s);
    }
    return s;
  };
}

/** The one status signal of a server, shared by the list and the server view. */
export const serverStatus: (id: string) => Signal<ServerStatus> = signalsById<ServerStatus>("unknown");

/** Whether a server's install steps have run once; undefined until its node says. */
export const serverInstalled: (id: string) => Signal<boolean | undefined> = signalsById<boolean | undefined>(
  undefined,
);

/** While a server is not installed: why its last install failed (undefined: none failed). */
export const serverInstallFailure: (id: string) => Signal<string | undefined> = signalsById<
  string | undefined
>(undefined);

/** A running server's last CPU and memory (with its limits), as the live channel or a poll brought them. */
export const liveStats: (id: string) => Signal<ServerStats | undefined> = signalsById<
  ServerStats | undefined
>(undefined);

const newsListeners = new Set<(id: string) => void>();

/** Called after each status or stats delivered for a server (the signals then hold it); returns the unsubscribe. */
export function onServerNews(listener: (id: string) => void): () => void {
  newsListeners.add(listener);
  return () => newsListeners.delete(listener);
}

function told(id: string): void {
  for (const listener of newsListeners) listener(id);
}

export function setServerStatus(id: string, answer: StatusNews): void {
  serverStatus(id).value = statusOf(answer);
  if (typeof answer.installed === "boolean") {
    serverInstalled(id).value = answer.installed;
    serverInstallFailure(id).value = answer.installed ? undefined : answer.installFailure;
  }
  told(id);
}

/** A server's usage as delivered (undefined: not running, nothing to show). */
export function setServerStats(id: string, stats: ServerStats | undefined): void {
  liveStats(id).value = stats;
  told(id);
}
