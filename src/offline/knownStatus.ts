import { useEffect, useState } from "react";
import type { ServerStats } from "../api/servers";
import { liveStats, onServerNews, type ServerStatus, serverStatus } from "../state/serverStatus";
import { lastKnown, remember } from "./lastKnown";
import { signedInUser } from "./owner";

// The last known status and usage of each server, for the offline screens (issue 25): what the live
// channel, a server's own socket or the polling fallback delivered (never a read of its own), kept
// with the time it came, in the account's last-known copies (./lastKnown, wiped at logout).

export interface KnownStatus {
  status: ServerStatus;
  /** CPU and memory while it ran. */
  stats?: ServerStats;
  /** When it was delivered (ms since epoch). */
  at: number;
}
export type KnownStatuses = Record<string, KnownStatus>;

/** Deliveries are written at most this often (stats come every few seconds per running server). */
const SAVE_MS = 2000;
/** The most servers kept; the longest unheard go first. */
const MAX_KEPT = 1000;

let started = false;
let pending = new Map<string, KnownStatus>();
let pendingOwner: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let writing: Promise<void> = Promise.resolve();

/** From now on, every status and usage delivered on this page is kept (once per page). */
export function keepStatuses(): void {
  if (started) return;
  started = true;
  onServerNews((id) => {
    const status = serverStatus(id).value;
    const who = signedInUser();
    if (status === "unknown" || who === undefined) return;
    // Another account signed in on this page: what the previous one saw is not theirs to keep.
    if (who !== pendingOwner) pending = new Map();
    pendingOwner = who;
    const running = status === "online" || status === "starting";
    pending.set(id, { status, stats: running ? liveStats(id).value : undefined, at: Date.now() });
    timer ??= setTimeout(flush, SAVE_MS);
  });
  // Written at once when the network goes or the page is left, so the offline visit has the latest.
  addEventListener("offline", flush);
  addEventListener("pagehide", flush);
}

function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  if (pending.size === 0) return;
  const batch = pending;
  const who = pendingOwner;
  pending = new Map();
  // One write after another: each reads what the last one wrote.
  writing = writing.then(async () => {
    const kept = await lastKnown("statuses");
    if (signedInUser() !== who) return;
    await remember("statuses", mergeKnown(kept?.value, batch));
  });
}

/** The kept copy with a batch of deliveries in: theirs win; past `max`, the longest unheard go. */
export function mergeKnown(
  kept: KnownStatuses | undefined,
  batch: ReadonlyMap<string, KnownStatus>,
  max = MAX_KEPT,
): KnownStatuses {
  const all = { ...validKnown(kept), ...Object.fromEntries(batch) };
  const ids = Object.keys(all);
  if (ids.length > max) {
    ids.sort((a, b) => all[a].at - all[b].at);
    for (const id of ids.slice(0, ids.length - max)) delete all[id];
  }
  return all;
}

/** Entries of the shape this version writes (an older or foreign one is left out). */
export function validKnown(all: KnownStatuses | undefined): KnownStatuses {
  const ok: KnownStatuses = {};
  for (const [id, entry] of Object.entries(all ?? {})) {
    if (entry && typeof entry.at === "number" && typeof entry.status === "string") ok[id] = entry;
  }
  return ok;
}

/** The kept copy with this account's deliveries not written yet. */
function withPending(kept: KnownStatuses | undefined): KnownStatuses {
  const mine = pendingOwner !== undefined && pendingOwner === signedInUser();
  return mine ? mergeKnown(kept, pending) : validKnown(kept);
}

/** The kept statuses, read once when `wanted` turns true (an offline screen). */
export function useKnownStatuses(wanted: boolean): KnownStatuses | undefined {
  const [known, setKnown] = useState<KnownStatuses>();
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    // After any write under way, with what is not written yet: a screen that goes offline while open
    // (the write starts with the "offline" event) sees the latest, not the copy before it.
    void writing
      .catch(() => undefined)
      .then(() => lastKnown("statuses"))
      .then((kept) => live && setKnown(withPending(kept?.value)));
    return () => {
      live = false;
    };
  }, [wanted]);
  return wanted ? known : undefined;
}
