import { signal } from "@preact/signals-react";
import { readLocal, registerPreference, savePreference } from "../state/preferences";

// Sidebar: open / closed / mini (spec §2.2, §9). Closed by default below 1200 px and reopened
// when the window widens; the mini choice is a user preference (`sidebar.mini`, see preferences.ts).

export const SIDEBAR_CLOSED_BELOW = 1200;
export const MINI_KEY = "sidebar.mini" as const;

export const wideWindow = signal(true);
export const sidebarOpen = signal(true);
export const sidebarMini = signal(false);

const readMini = () => readLocal(MINI_KEY) === "true";
registerPreference(MINI_KEY, (value) => {
  sidebarMini.value = value === "true";
});

export function setMini(mini: boolean): void {
  sidebarMini.value = mini;
  savePreference(MINI_KEY, String(mini));
}

export function toggleSidebar(): void {
  sidebarOpen.value = !sidebarOpen.value;
}

/** Close after a click in the main area, but only where the sidebar overlays it. */
export function closeIfNarrow(): void {
  if (!wideWindow.value) sidebarOpen.value = false;
}

let closedBelow = SIDEBAR_CLOSED_BELOW;
let stopWatching: (() => void) | undefined;

export function watchWindowWidth(): void {
  sidebarMini.value = readMini();
  stopWatching?.();
  const mq = window.matchMedia(`(min-width: ${closedBelow}px)`);
  const apply = () => {
    wideWindow.value = mq.matches;
    sidebarOpen.value = mq.matches;
  };
  apply();
  mq.addEventListener("change", apply);
  stopWatching = () => mq.removeEventListener("change", apply);
}

/** A theme archive's manifest may move the width below which the sidebar starts closed. */
export function setSidebarClosedBelow(px: number | undefined): void {
  const next = px ?? SIDEBAR_CLOSED_BELOW;
  if (next === closedBelow) return;
  closedBelow = next;
  if (stopWatching) watchWindowWidth();
}
