import { computed, effect, signal } from "@preact/signals-react";
import { readLocal, registerPreference, savePreference } from "./preferences";

// The user's theme settings (spec §3, §4, §9): mode class, primary colour, font face and size,
// and whether servers show their type's icon. Kept as one JSON user setting (`themeSettings`,
// reference §10.6); the page applies a cached copy before its first paint (see paintCache.ts).

export type ThemeMode = "auto" | "light" | "dark" | "dark-hc";
export type FontFace = "default" | "accessible";
export type ServerTypeDisplay = "icon" | "none";

export interface ThemeSettings {
  mode: ThemeMode;
  color: string;
  fontFace: FontFace;
  /** Pixels added to the browser's base size: +4 to -2 in 2 px steps (0 = 100 %). */
  fontSize: number;
  serverTypeDisplay: ServerTypeDisplay;
}

export const DEFAULT_PRIMARY = "#07a7e3";
export const THEME_MODES: readonly ThemeMode[] = ["auto", "light", "dark", "dark-hc"];
export const FONT_FACES: readonly FontFace[] = ["default", "accessible"];
export const FONT_SIZES: readonly number[] = [4, 2, 0, -2];
export const SERVER_TYPE_DISPLAYS: readonly ServerTypeDisplay[] = ["icon", "none"];
export const DEFAULT_THEME_SETTINGS: ThemeSettings = {
  mode: "auto",
  color: DEFAULT_PRIMARY,
  fontFace: "default",
  fontSize: 0,
  serverTypeDisplay: "icon",
};

/** The user preference holding the settings, as JSON (reference §10.6). */
export const THEME_SETTINGS_KEY = "themeSettings" as const;

const oneOf = <T>(list: readonly T[], value: unknown, fallback: T): T =>
  list.includes(value as T) ? (value as T) : fallback;

// PufferPanel's client stores a class setting as the class itself ("mode-dark", reference §10.5)
// and puts it on the page as is: both forms are read, and the class is what is written, so one
// account's choices read the same in both clients.
const unprefixed = (value: unknown, prefix: string): unknown =>
  typeof value === "string" && value.startsWith(prefix) ? value.slice(prefix.length) : value;

/** How a change is stored: mode and server type display as the class PufferPanel's client sets. */
export function storedForm(change: Partial<ThemeSettings>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...change };
  if (change.mode) out.mode = `mode-${change.mode}`;
  if (change.serverTypeDisplay) out.serverTypeDisplay = `server-type-${change.serverTypeDisplay}`;
  return out;
}

/** Settings from stored JSON; anything unknown or invalid takes its default (spec §4). */
export function parseThemeSettings(
  json: string | null | undefined,
  defaults: ThemeSettings = DEFAULT_THEME_SETTINGS,
): ThemeSettings {
  let raw: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(json ?? "{}");
    if (parsed && typeof parsed === "object") raw = parsed;
  } catch {
    // keep the defaults
  }
  const d = defaults;
  return {
    mode: oneOf(THEME_MODES, unprefixed(raw.mode, "mode-"), d.mode),
    color: typeof raw.color === "string" && isValidColor(raw.color) ? raw.color : d.color,
    fontFace: oneOf(FONT_FACES, raw.fontFace, d.fontFace),
    fontSize: oneOf(FONT_SIZES, raw.fontSize, d.fontSize),
    serverTypeDisplay: oneOf(
      SERVER_TYPE_DISPLAYS,
      unprefixed(raw.serverTypeDisplay, "server-type-"),
      d.serverTypeDisplay,
    ),
  };
}

/** The user's own choices as stored (only what they changed); the rest comes from the theme. */
const storedSettings = signal<string | null>(
  typeof window === "undefined" ? null : readLocal(THEME_SETTINGS_KEY),
);
/** Defaults of the active theme archive (its manifest's settings), over the built-in ones. */
export const themeDefaults = signal<Partial<ThemeSettings>>({});
export const themeSettings = computed(() =>
  parseThemeSettings(
    storedSettings.value,
    parseThemeSettings(JSON.stringify(themeDefaults.value), DEFAULT_THEME_SETTINGS),
  ),
);
registerPreference(THEME_SETTINGS_KEY, (value) => {
  storedSettings.value = value;
});

/** A change made on the Self page: applied at once and saved with the account. */
export function updateThemeSettings(change: Partial<ThemeSettings>): void {
  let stored: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(storedSettings.value ?? "{}");
    if (parsed && typeof parsed === "object") stored = parsed;
  } catch {
    // start afresh
  }
  const next = JSON.stringify({ ...stored, ...storedForm(change) });
  storedSettings.value = next;
  savePreference(THEME_SETTINGS_KEY, next);
}

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

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(a) ?? 0, luminance(b) ?? 0].sort((x, y) => y - x);
  return (la + 0.05) / (lb + 0.05);
}

/** Text colour on a background: #eee or #333, whichever contrasts more (spec §9). */
export function contrastText(hex: string): "#eee" | "#333" {
  const bg = isValidColor(hex) ? hex : DEFAULT_PRIMARY;
  return contrastRatio(bg, "#eee") > contrastRatio(bg, "#333") ? "#eee" : "#333";
}

/** Classes and inline style of <html> for a set of settings (also what the paint cache keeps). */
export function rootLook(s: ThemeSettings): { classes: string[]; style: Record<string, string> } {
  return {
    classes: [`mode-${s.mode}`, `font-${s.fontFace}`, `types-${s.serverTypeDisplay}`],
    style: {
      "--primary": s.color,
      "--on-primary": contrastText(s.color),
      "font-size": s.fontSize ? `calc(100% + ${s.fontSize}px)` : "100%",
    },
  };
}

const ROOT_CLASS = /^(mode|font|types)-/;

/** Keep <html> classes and CSS variables in step with the settings. */
export function applyTheme(root: HTMLElement = document.documentElement, onApplied?: () => void): () => void {
  return effect(() => {
    const look = rootLook(themeSettings.value);
    for (const c of [...root.classList]) if (ROOT_CLASS.test(c)) root.classList.remove(c);
    root.classList.add(...look.classes);
    for (const [k, v] of Object.entries(look.style)) root.style.setProperty(k, v);
    onApplied?.();
  });
}
