import { computed, effect, signal } from "@preact/signals-react";
import { config } from "../state/config";
import { readLocal, registerPreference, savePreference } from "../state/preferences";

// Which theme archive is in force (reference §10.4–10.6): the user's choice (user setting
// `theme`) while the panel still lists it, else the site's default (`themes.active`). The
// built-in theme is the web app's own CSS: nothing to download, so the sign-in page of a site
// that keeps it loads no archive code at all.

export const BUILT_IN_THEME = "Outpost";
const THEME_KEY = "theme" as const;

export const chosenTheme = signal<string | null>(typeof window === "undefined" ? null : readLocal(THEME_KEY));
registerPreference(THEME_KEY, (value) => {
  chosenTheme.value = value;
});

/** Themes to offer: the panel's list, with the built-in one always there. */
export const availableThemes = computed(() =>
  [...new Set([BUILT_IN_THEME, ...config.value.themes.available])].sort(),
);

export const activeTheme = computed(() => {
  const chosen = chosenTheme.value;
  // A choice the panel no longer lists falls back to the default theme (spec §4).
  if (chosen && availableThemes.value.includes(chosen)) return chosen;
  const fallback = config.value.themes.active;
  return availableThemes.value.includes(fallback) ? fallback : BUILT_IN_THEME;
});

export function chooseTheme(name: string): void {
  chosenTheme.value = name;
  savePreference(THEME_KEY, name);
}

/** Start following the active theme; call once /api/config has answered (or failed). */
export function watchActiveTheme(): () => void {
  return effect(() => {
    const name = activeTheme.value;
    // The built-in theme with nothing applied from an earlier visit: nothing to load or undo.
    if (name === BUILT_IN_THEME && !document.getElementById("theme-css")) return;
    void import("./applyArchive").then((m) => m.applyArchive(name));
  });
}
