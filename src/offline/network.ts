import { signal } from "@preact/signals-react";

// Whether the panel can be reached (issue 11): the browser's own flag and its online/offline
// events, plus what the API client sees — a request that got no answer at all means offline even
// when the browser still believes it is connected (wifi up, server gone). Kept tiny and free of
// storage code: the shell (and so the login page) imports it.

export const online = signal(typeof navigator === "undefined" ? true : navigator.onLine);
/** Counts the returns to online: list screens re-read when it changes. */
export const backOnline = signal(0);

const PROBE_MS = 10_000;
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

/** A request got no HTTP answer (not an abort): the panel is out of reach. */
export function requestUnanswered(): void {
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
