import { type ParsedTarFileItem, parseTar } from "nanotar";

// Reading a theme archive (reference §10.5): a tar holding manifest.json, optionally theme.css,
// and the files the CSS names with url('name'). Pure: no DOM, no network.

/**
 * One entry of the manifest's settings: a class to put on the page or a colour. Read as
 * PufferPanel's client reads it (reference §10.5): class options are `{value, default?}`, the
 * default is the option marked `default: true`, else the first. (Plain strings and a `default`
 * beside the options, our earlier form, are read too.)
 */
export interface ThemeSettingSpec {
  type: "class" | "color";
  default?: string;
  /** The options' values, e.g. "mode-dark". */
  options?: string[];
}

export interface ThemeManifest {
  keepDefaultCss: boolean;
  /** Window width in px below which the sidebar starts closed. */
  sidebarClosedBelow?: number;
  settings: Record<string, ThemeSettingSpec>;
}

export interface ThemeArchive {
  manifest: ThemeManifest;
  css: string;
  /** Other files by name (images, fonts), for the CSS's url('name'). */
  assets: Map<string, Uint8Array>;
}

/** The one error a broken archive gives, whatever broke: the user can do nothing else about it. */
export class ThemeArchiveError extends Error {
  constructor() {
    super("no theme manifest found");
  }
}

/** An option's value: `{value: "mode-dark"}` (PufferPanel's form) or a plain string. */
function optionValue(option: unknown): string | undefined {
  if (typeof option === "string") return option;
  const value = option && typeof option === "object" ? (option as { value?: unknown }).value : undefined;
  return typeof value === "string" ? value : undefined;
}

function parseManifest(text: string): ThemeManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ThemeArchiveError();
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new ThemeArchiveError();
  const m = raw as Record<string, unknown>;
  const settings: Record<string, ThemeSettingSpec> = {};
  if (m.settings && typeof m.settings === "object") {
    for (const [key, spec] of Object.entries(m.settings as Record<string, Record<string, unknown>>)) {
      if (!spec || (spec.type !== "class" && spec.type !== "color")) continue;
      const options = Array.isArray(spec.options) ? spec.options.map(optionValue) : undefined;
      const marked = Array.isArray(spec.options)
        ? spec.options.find(
            (o) => o && typeof o === "object" && (o as { default?: unknown }).default === true,
          )
        : undefined;
      const fallback =
        typeof spec.default === "string" ? spec.default : options?.find((o) => o !== undefined);
      settings[key] = {
        type: spec.type,
        default: (marked ? optionValue(marked) : undefined) ?? fallback,
        options: options?.filter((o): o is string => o !== undefined),
      };
    }
  }
  const below = Number(m.sidebarClosedBelow);
  return {
    keepDefaultCss: m.keepDefaultCss !== false,
    sidebarClosedBelow: Number.isFinite(below) && below >= 0 ? below : undefined,
    settings,
  };
}

/** Reads an archive; a truncated or unreadable one, or one without a manifest, throws ThemeArchiveError. */
export function readThemeArchive(bytes: Uint8Array): ThemeArchive {
  // A tar ends with two zero blocks: without them the download was cut, maybe between two files.
  if (bytes.length < 1024 || bytes.subarray(bytes.length - 1024).some((b) => b !== 0)) {
    throw new ThemeArchiveError();
  }
  let items: ParsedTarFileItem[];
  try {
    // A copy: nanotar reads the view's whole underlying buffer, past the end of a subarray.
    items = parseTar(bytes.slice()) as ParsedTarFileItem[];
  } catch {
    throw new ThemeArchiveError();
  }
  const files = new Map<string, Uint8Array>();
  for (const item of items) {
    if (item.type && item.type !== "file") continue;
    const data = item.data ?? new Uint8Array();
    // A cut-off download: the header promises more than the archive holds.
    if (data.length !== item.size) throw new ThemeArchiveError();
    files.set(item.name.replace(/^\.\//, ""), data);
  }
  const manifest = files.get("manifest.json");
  if (!manifest) throw new ThemeArchiveError();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  const css = files.get("theme.css");
  files.delete("manifest.json");
  files.delete("theme.css");
  return { manifest: parseManifest(text(manifest)), css: css ? text(css) : "", assets: files };
}

/** The CSS with each url('name') of an archive file replaced by what `urlOf` gives for it. */
export function linkAssets(
  css: string,
  assets: ReadonlySet<string>,
  urlOf: (name: string) => string,
): string {
  return css.replace(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g, (whole, _q, name: string) => {
    const file = name.trim().replace(/^\.\//, "");
    return assets.has(file) ? `url("${urlOf(file)}")` : whole;
  });
}
