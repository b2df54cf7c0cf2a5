import { t } from "@lingui/core/macro";
import { setSidebarClosedBelow } from "../app/sidebarState";
import { showToast } from "../components/toastStore";
import { type ThemeSettings, themeDefaults } from "../state/theme";
import { linkAssets, readThemeArchive, type ThemeArchive, ThemeArchiveError } from "./archive";
import { rememberPaint } from "./paintCache";
import { BUILT_IN_THEME } from "./themeChoice";

// Puts a theme archive in force: its stylesheet after the app's own, its files as blob URLs, its
// manifest's defaults and sidebar width. A broken archive says so and leaves the built-in theme.

const STYLE_ID = "theme-css";
let current = "";
let assetUrls: string[] = [];
let hideDefaultCss: MutationObserver | undefined;

const MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  woff: "font/woff",
  woff2: "font/woff2",
};

/** The app's own stylesheets on or off (a manifest's keepDefaultCss: false turns them off). */
function setDefaultCss(on: boolean): void {
  const apply = () => {
    for (const sheet of document.styleSheets) {
      const owner = sheet.ownerNode as Element | null;
      if (owner?.id !== STYLE_ID) sheet.disabled = !on;
    }
  };
  hideDefaultCss?.disconnect();
  hideDefaultCss = undefined;
  apply();
  if (!on) {
    // Screens load their CSS later: keep those off too.
    hideDefaultCss = new MutationObserver(apply);
    hideDefaultCss.observe(document.head, { childList: true });
  }
}

function defaultsOf(theme: ThemeArchive): Partial<ThemeSettings> {
  const out: Record<string, string> = {};
  for (const [key, spec] of Object.entries(theme.manifest.settings))
    if (spec.default) out[key] = spec.default;
  return out as Partial<ThemeSettings>;
}

function install(theme: ThemeArchive | undefined): void {
  for (const url of assetUrls) URL.revokeObjectURL(url);
  assetUrls = [];
  let style = document.getElementById(STYLE_ID);
  if (!theme) {
    style?.remove();
    themeDefaults.value = {};
    setSidebarClosedBelow(undefined);
    setDefaultCss(true);
    rememberPaint({ css: undefined });
    return;
  }
  const urls = new Map<string, string>();
  for (const [name, data] of theme.assets) {
    const type = MIME[name.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
    const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
    urls.set(name, url);
    assetUrls.push(url);
  }
  const css = linkAssets(theme.css, new Set(urls.keys()), (name) => urls.get(name)!);
  if (!style) {
    style = document.createElement("style");
    style.id = STYLE_ID;
  }
  style.textContent = css;
  document.head.appendChild(style); // (again) last, so it comes after the app's own CSS
  themeDefaults.value = defaultsOf(theme);
  setSidebarClosedBelow(theme.manifest.sidebarClosedBelow);
  setDefaultCss(theme.manifest.keepDefaultCss);
  // Blob URLs do not outlive the page: a theme with files is applied after loading instead.
  rememberPaint({ css: urls.size ? undefined : css });
}

export async function applyArchive(name: string): Promise<void> {
  if (name === current) return;
  current = name;
  if (name === BUILT_IN_THEME) return install(undefined);
  let theme: ThemeArchive | undefined;
  try {
    const res = await fetch(`/theme/${encodeURIComponent(name)}.tar`);
    if (res.ok) theme = readThemeArchive(new Uint8Array(await res.arrayBuffer()));
  } catch (e) {
    if (!(e instanceof ThemeArchiveError)) {
      // Offline: keep what the page has (the cached stylesheet), try again next time.
      if (current === name) current = "";
      return;
    }
    if (current === name) showToast("error", t`Theme ${name}: no theme manifest found`);
  }
  if (current === name) install(theme);
}
