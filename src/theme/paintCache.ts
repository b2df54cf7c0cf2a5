// What the page looked like last time, for index.html's inline script to apply before the first
// paint (no flash of the wrong theme, language direction or theme archive). The app rewrites it
// whenever the theme, the language or the theme archive changes. Keep the field names in step
// with the script in index.html.

export const PAINT_KEY = "outpost.paint";
/** A theme stylesheet larger than this is not cached (it then applies after the archive loads). */
const MAX_CACHED_CSS = 64 * 1024;

export interface PaintCache {
  /** <html> class attribute */
  c?: string;
  /** <html> style attribute */
  s?: string;
  /** lang and dir */
  l?: string;
  d?: string;
  /** the theme archive's stylesheet, and whether the built-in one stays (keepDefaultCss) */
  css?: string;
}

function read(): PaintCache {
  try {
    const parsed = JSON.parse(localStorage.getItem(PAINT_KEY) ?? "{}");
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}

/** Merge a change into the cache. */
export function rememberPaint(change: PaintCache): void {
  const next = { ...read(), ...change };
  if (next.css && next.css.length > MAX_CACHED_CSS) delete next.css;
  for (const k of Object.keys(next) as (keyof PaintCache)[]) if (next[k] === undefined) delete next[k];
  try {
    localStorage.setItem(PAINT_KEY, JSON.stringify(next));
  } catch {
    // storage full or refused: the page applies the theme a moment later instead
  }
}
