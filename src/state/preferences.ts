import { getUserSettings, putUserSetting } from "../api/userSettings";

// A signed-in user's preferences (theme, list type, sidebar, language) live on the panel
// (/api/userSettings, spec §7), so they follow the user to another device. Local storage, under
// the same key, is the copy a page starts with and what is left when offline.
//
// Each preference's module registers how to apply a value; it reads local storage when it
// loads, so a module not loaded yet picks up a synced value then.

type Apply = (value: string) => void;
const appliers = new Map<string, Apply>();
/** The keys synced with the panel; each is also its local storage key. */
export const PREFERENCE_KEYS = ["theme", "themeSettings", "listType", "sidebar.mini", "locale"] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];

let signedIn = false;

export function registerPreference(key: PreferenceKey, apply: Apply): void {
  appliers.set(key, apply);
}

export function readLocal(key: PreferenceKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeLocal(key: PreferenceKey, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // kept for this page only
  }
}

/** Keys the user changed while the panel's copy was being fetched: the newer choice wins. */
let changedDuringSync: Set<string> | undefined;

/** Each key's last PUT: the next waits for it, so quick changes reach the panel in order. */
const inFlight = new Map<string, Promise<void>>();

function push(key: string, value: string): void {
  const next = (inFlight.get(key) ?? Promise.resolve()).then(() =>
    putUserSetting(key, value).catch(() => undefined),
  );
  inFlight.set(key, next);
}

/** A choice the user just made: kept locally, and on the panel when signed in. */
export function savePreference(key: PreferenceKey, value: string): void {
  changedDuringSync?.add(key);
  writeLocal(key, value);
  if (signedIn) push(key, value);
}

/**
 * After sign-in: the panel's values win and are applied; a preference the panel does not
 * have yet is sent from this device.
 */
export async function syncPreferences(): Promise<void> {
  signedIn = true;
  const changed = new Set<string>();
  changedDuringSync = changed;
  let stored: { key: string; value: string }[];
  try {
    stored = await getUserSettings();
  } catch {
    return; // offline or refused: the local copy stays in force
  } finally {
    if (changedDuringSync === changed) changedDuringSync = undefined;
  }
  const remote = new Map(stored.map((s) => [s.key, s.value]));
  for (const key of PREFERENCE_KEYS) {
    if (changed.has(key)) continue; // already sent, and newer than what the panel had
    const value = remote.get(key);
    if (value !== undefined) {
      if (value !== readLocal(key)) {
        writeLocal(key, value);
        appliers.get(key)?.(value);
      }
    } else {
      const local = readLocal(key);
      if (local !== null) push(key, local);
    }
  }
}

export function stopPreferenceSync(): void {
  signedIn = false;
}
