// Locale names and choice at startup (spec §9). Pure: no DOM, no catalogs.

export const ALL_LOCALES = [
  "ar_SA",
  "cs_CZ",
  "da_DK",
  "de_DE",
  "el_GR",
  "en_US",
  "es_419",
  "es_ES",
  "et_EE",
  "fi_FI",
  "fr_FR",
  "he_IL",
  "hu_HU",
  "id_ID",
  "it_IT",
  "ja_JP",
  "ko_KR",
  "lt_LT",
  "nl_NL",
  "no_NO",
  "pl_PL",
  "pt_BR",
  "pt_PT",
  "ro_RO",
  "ru_RU",
  "sk_SK",
  "sr_SP",
  "sv_SE",
  "tr_TR",
  "uk_UA",
  "vi_VN",
  "zh_CN",
  "zh_HK",
  "zh_TW",
] as const;

export const DEFAULT_LOCALE = "en_US";
export const LOCALE_STORAGE_KEY = "locale" as const;
const RTL = new Set(["ar_SA", "he_IL"]);

/** BCP 47 tag for a catalog name: en_US → en-US; sr_SP is shown with region RS (spec §2.3). */
export function toBcp47(locale: string): string {
  if (locale === "sr_SP") return "sr-RS";
  if (locale === "no_NO") return "nb-NO";
  return locale.replace("_", "-");
}

/**
 * The tag Intl formats dates, times, sizes and numbers with in a locale: its BCP 47 tag, with
 * Western digits for Arabic — the digits its addresses, ports and ids are written in on the same
 * page (Arabic-Indic ones beside them read as a mix).
 */
export function intlLocale(locale: string): string {
  const tag = toBcp47(locale || DEFAULT_LOCALE);
  return tag.startsWith("ar") ? `${tag}-u-nu-latn` : tag;
}

export function isRtl(locale: string): boolean {
  return RTL.has(locale);
}

/**
 * Saved locale if supported; else a browser language matched on the full tag, then on the
 * language part; else en_US.
 */
export function pickLocale(
  saved: string | null,
  browser: readonly string[],
  supported: readonly string[],
): string {
  if (saved && supported.includes(saved)) return saved;
  const norm = (s: string) => s.toLowerCase().replace("-", "_");
  for (const tag of browser) {
    const full = supported.find((l) => norm(l) === norm(tag) || norm(toBcp47(l)) === norm(tag));
    if (full) return full;
  }
  for (const tag of browser) {
    const [lang, sub] = norm(tag).split("_");
    // Chinese by script: Traditional is Taiwan's (and Hong Kong's), Simplified the mainland's.
    const script = lang === "zh" && sub === "hant" ? "zh_TW" : lang === "zh" && sub === "hans" ? "zh_CN" : "";
    if (script && supported.includes(script)) return script;
    const part = supported.find((l) => [l, toBcp47(l)].some((n) => norm(n).split("_")[0] === lang));
    if (part) return part;
  }
  return supported.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : (supported[0] ?? DEFAULT_LOCALE);
}
