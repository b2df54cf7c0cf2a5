import { signal } from "@preact/signals-react";

// Whether the panel can be reached (issue 11): the browser's own flag and its online/offline
// events, plus what the API client sees — a request that got no answer at all means offline even
// when the browser still believes it is connected (wifi up, server gone). Kept tiny and free of
// storage code: the shell (and so the login page) imports it.

export const online = signal(typeof navigator === "undefined" ? true : navigator.onLine);
/** Counts the returns to online: list screens re-read when it changes. */
export const backOnline = signal(0);

/** How often a page that lost the panel (the browser still online) asks whether it is back. */
export const PROBE_MS = 10_000;
let probe: ReturnType<typeof setInterval> | undefined;

function setOnline(value: boolean): void {
  if (online.value === value) return;
  online.value = value;
  if (value) {
    clearInterval(probe);
    probe = undefined;
    backOnline.value++;
  }
}

/** Taken when a request is sent, to hand to requestUnanswered: which return to online it followed. */
export const sentAt = (): number => backOnline.peek();

/** Whether the network came back since a request was sent (at `sent`, from sentAt). */
export const backSince = (sent: number): boolean => sent !== backOnline.peek();

/**
 * A request sent at `sent` (sentAt) got no HTTP answer (not an abort): the panel is out of reach,
 * unless the network came back since it was sent (its failure is older news than the "online").
 */
export function requestUnanswered(sent: number): void {
  if (backSince(sent)) return;
  setOnline(false);
  // The browser sends no "online" event when only the server was gone: ask now and then.
  if (!probe && typeof setInterval !== "undefined") {
    probe = setInterval(() => {
      if (!navigator.onLine) return;
      fetch("/api/config", { cache: "no-store" }).then(
        () => setOnline(true),
        () => undefined,
      );
    }, PROBE_MS);
  }
}

/** Any HTTP answer (even an error status) proves the panel is reachable. */
export function requestAnswered(): void {
  setOnline(true);
}

export function watchNetwork(): void {
  addEventListener("online", () => setOnline(true));
  addEventListener("offline", () => setOnline(false));
}
