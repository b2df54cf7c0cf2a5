import { i18n, type MessageDescriptor, type Messages } from "@lingui/core";
import { readLocal, registerPreference, savePreference } from "../state/preferences";
import { rememberPaint } from "../theme/paintCache";
import { DEFAULT_LOCALE, intlLocale, isRtl, LOCALE_STORAGE_KEY, pickLocale, toBcp47 } from "./locales";

// One lazy chunk per catalog and locale: only the active locale is downloaded (@lingui/vite-plugin
// compiles the .po on import). Each locale has two catalogs (lingui.config.ts): the shell's,
// loaded at boot, and the screens' (with the API errors' texts), loaded with the first screen that
// needs it or the first error shown, so the login page's first load has none of them. A locale is supported once its
// shell catalog exists.
type CatalogLoader = () => Promise<{ messages: Messages }>;
const byFile = (loaders: Record<string, CatalogLoader>) =>
  new Map(Object.entries(loaders).map(([path, load]) => [path.split("/").at(-2)!, load]));
const shellCatalogs = byFile(import.meta.glob<{ messages: Messages }>("../../locales/*/shell.po"));
const screenCatalogs = byFile(import.meta.glob<{ messages: Messages }>("../../locales/*/screens.po"));

export const supportedLocales = [...shellCatalogs.keys()];

/** Screens' catalogs already merged into i18n, by locale (a promise while loading). */
const screensLoaded = new Map<string, Promise<void>>();
let screensWanted = false;
/** The locale being activated or active (set before its catalog arrives, for early preloads). */
let currentLocale = DEFAULT_LOCALE;

export function startupLocale(): string {
  const saved = readLocal(LOCALE_STORAGE_KEY);
  return pickLocale(saved, navigator.languages ?? [navigator.language], supportedLocales);
}

function supported(locale: string): string {
  return shellCatalogs.has(locale) ? locale : DEFAULT_LOCALE;
}

function loadScreens(locale: string): Promise<void> {
  let loading = screensLoaded.get(locale);
  if (!loading) {
    const load = screenCatalogs.get(locale) ?? screenCatalogs.get(DEFAULT_LOCALE);
    loading = (load ? load() : Promise.resolve({ messages: {} })).then(({ messages }) => {
      // i18n.load merges into the locale's messages, next to the shell's.
      i18n.load(locale, messages);
    });
    loading.catch(() => screensLoaded.delete(locale));
    screensLoaded.set(locale, loading);
  }
  return loading;
}

/**
 * Resolves once the screens' strings of the active locale are loaded. The routes table wraps
 * every screen but the sign-in ones with it, so a screen never renders before its strings.
 */
export function screenStringsReady(): Promise<void> {
  screensWanted = true;
  return loadScreens(currentLocale);
}

/**
 * The API errors' texts by code, once the active locale's are loaded: await it before showing one.
 * They are in the screens' catalog (lingui.config.ts), so the table and its words load with the
 * first error or screen, not with the login page; a sign-in that goes wrong fetches the strings the
 * screens after it need anyway.
 */
export async function errorTexts(): Promise<(code: string) => MessageDescriptor | undefined> {
  screensWanted = true;
  const [{ errorMessage }] = await Promise.all([
    import("./errorMessages"),
    loadScreens(currentLocale).catch(() => undefined),
  ]);
  return errorMessage;
}

export async function activateLocale(locale: string): Promise<void> {
  const chosen = supported(locale);
  currentLocale = chosen;
  const load = shellCatalogs.get(chosen);
  if (!load) throw new Error(`no catalog for ${locale}`);
  const [{ messages }] = await Promise.all([
    load(),
    // Switching language with a screen open: its strings come along before the switch.
    screensWanted ? loadScreens(chosen) : undefined,
  ]);
  i18n.load(chosen, messages);
  i18n.activate(chosen, [intlLocale(chosen)]);
  const html = document.documentElement;
  html.lang = toBcp47(chosen);
  html.dir = isRtl(chosen) ? "rtl" : "ltr";
  rememberPaint({ l: html.lang, d: html.dir });
}

/** A user's choice: switch, and keep it as a preference that follows the user. */
export async function chooseLocale(locale: string): Promise<void> {
  await activateLocale(locale);
  savePreference(LOCALE_STORAGE_KEY, locale);
}

registerPreference(LOCALE_STORAGE_KEY, (value) => {
  void activateLocale(value).catch(() => undefined);
});
