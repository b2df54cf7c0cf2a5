import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { type Access, permitted } from "./access";

// Hotkey entries derived from the routes table plus the fixed global ones (spec §2.2). Pure.

export interface HotkeyEntry {
  /** tinykeys sequence. */
  keys: string;
  label: MessageDescriptor;
  /** Where it navigates, for route hotkeys. */
  to?: string;
  /** Not listed in the help dialog. */
  hidden?: boolean;
}

interface HotkeyRoute {
  path: string;
  access: Access;
  label: MessageDescriptor;
  hotkey?: string;
}

export const HIDDEN_KEYS = new Set(["?", "Shift+?", "Escape"]);
export const CHORD_TIMEOUT_MS = 1500;

export function routeHotkeys(
  routes: readonly HotkeyRoute[],
  loggedIn: boolean,
  hasScope: (s: string) => boolean,
): HotkeyEntry[] {
  return routes
    .filter((r) => r.hotkey && permitted(r.access, loggedIn, hasScope))
    .map((r) => ({ keys: r.hotkey!, label: r.label, to: r.path }));
}

export function globalHotkeys(
  routes: readonly HotkeyRoute[],
  loggedIn: boolean,
  hasScope: (s: string) => boolean,
): HotkeyEntry[] {
  const fixed: HotkeyEntry[] = [
    { keys: "?", label: msg`Show hotkeys`, hidden: true },
    { keys: "Shift+?", label: msg`Show hotkeys`, hidden: true },
    { keys: "Escape", label: msg`Close dialog`, hidden: true },
  ];
  if (loggedIn) fixed.unshift({ keys: "/", label: msg`Focus search` });
  return [...fixed, ...routeHotkeys(routes, loggedIn, hasScope)];
}

/** What the help dialog lists. */
export function listedHotkeys(entries: readonly HotkeyEntry[]): HotkeyEntry[] {
  return entries.filter((e) => !e.hidden && !HIDDEN_KEYS.has(e.keys));
}

/** "g s" → ["g", "s"], "Shift+?" → ["Shift", "?"] for display as separate keys. */
export function keyCaps(keys: string): string[] {
  return keys.split(" ").flatMap((part) => (part === "+" ? ["+"] : part.split(/\b\+/)));
}
