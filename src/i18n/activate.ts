import { i18n, type Messages } from "@lingui/core";
import { DEFAULT_LOCALE, isRtl, LOCALE_STORAGE_KEY, pickLocale, toBcp47 } from "./locales";

// One lazy chunk per catalog: only the active locale is downloaded (@lingui/vite-plugin compiles
// the .po on import). A locale is supported once its catalog exists.
const catalogs = import.meta.glob<{ messages: Messages }>("../../locales/*/messages.po");
const byLocale = new Map(Object.entries(catalogs).map(([path, load]) => [path.split("/").at(-2)!, load]));

export const supportedLocales = [...byLocale.keys()];

export function startupLocale(): string {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // storage may be blocked; fall through to the browser language
  }
  return pickLocale(saved, navigator.languages ?? [navigator.language], supportedLocales);
}

export async function activateLocale(locale: string): Promise<void> {
  const load = byLocale.get(locale) ?? byLocale.get(DEFAULT_LOCALE);
  if (!load) throw new Error(`no catalog for ${locale}`);
  const { messages } = await load();
  i18n.load(locale, messages);
  i18n.activate(locale, [toBcp47(locale)]);
  document.documentElement.lang = toBcp47(locale);
  document.documentElement.dir = isRtl(locale) ? "rtl" : "ltr";
}

/** Persist a user's choice (the picker comes later) and switch. */
export async function chooseLocale(locale: string): Promise<void> {
  await activateLocale(locale);
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // not persisted; still active for this tab
  }
}
