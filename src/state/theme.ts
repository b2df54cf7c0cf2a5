import { effect, signal } from "@preact/signals-react";
import { readLocal, registerPreference, savePreference } from "./preferences";

// Theme mode classes and primary colour (spec §4, §9). Theme archives come later.

export type ThemeMode = "auto" | "light" | "dark" | "dark-hc";
export const DEFAULT_PRIMARY = "#07a7e3";

export const THEME_MODES: readonly ThemeMode[] = ["auto", "light", "dark", "dark-hc"];
/** The user preference holding the theme's settings, as JSON (reference §10.6): `{"mode": …}`. */
const THEME_SETTINGS_KEY = "themeSettings";

function parseMode(json: string | null): ThemeMode {
  try {
    const mode = JSON.parse(json ?? "{}")?.mode;
    return THEME_MODES.includes(mode) ? mode : "auto";
  } catch {
    return "auto";
  }
}

export const themeMode = signal<ThemeMode>(
  typeof window === "undefined" ? "auto" : parseMode(readLocal(THEME_SETTINGS_KEY)),
);
registerPreference(THEME_SETTINGS_KEY, (value) => {
  themeMode.value = parseMode(value);
});

export function setThemeMode(mode: ThemeMode): void {
  themeMode.value = mode;
  savePreference(THEME_SETTINGS_KEY, JSON.stringify({ mode }));
}
export const primaryColor = signal(DEFAULT_PRIMARY);

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function luminance(hex: string): number | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function isValidColor(hex: string): boolean {
  return luminance(hex) !== undefined;
}

/** Text colour on a background: #eee or #333, whichever contrasts more. */
export function contrastText(hex: string): "#eee" | "#333" {
  const l = luminance(hex) ?? luminance(DEFAULT_PRIMARY)!;
  const withLight = (luminance("#eee")! + 0.05) / (l + 0.05);
  const withDark = (l + 0.05) / (luminance("#333")! + 0.05);
  return withLight > withDark ? "#eee" : "#333";
}

/** Keep <html> classes and CSS variables in step with the signals. */
export function applyTheme(root: HTMLElement = document.documentElement): () => void {
  return effect(() => {
    const mode = themeMode.value;
    // An invalid colour falls back to the default (spec §4).
    const color = isValidColor(primaryColor.value) ? primaryColor.value : DEFAULT_PRIMARY;
    for (const m of ["auto", "light", "dark", "dark-hc"]) root.classList.toggle(`mode-${m}`, m === mode);
    root.style.setProperty("--primary", color);
    root.style.setProperty("--on-primary", contrastText(color));
  });
}
