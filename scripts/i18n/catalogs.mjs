// Reading and writing the Lingui .po catalogs for the translation scripts (todo, fill, check).
// en_US is the source: its msgstr is the English text (msgid is an explicit id for some messages).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import PO from "pofile";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const LOCALES_DIR = join(ROOT, "locales");
export const SOURCE = "en_US";
export const CATALOGS = ["shell", "screens"];

export function catalogPath(locale, catalog) {
  return join(LOCALES_DIR, locale, `${catalog}.po`);
}

export function readCatalog(locale, catalog) {
  const path = catalogPath(locale, catalog);
  return existsSync(path) ? PO.parse(readFileSync(path, "utf8")) : null;
}

export function writeCatalog(locale, catalog, po) {
  const path = catalogPath(locale, catalog);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${po.toString()}\n`);
}

/** Locales with a folder under locales/, the source first. */
export function presentLocales() {
  return readdirSync(LOCALES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[a-z]{2}_[A-Z0-9]{2,3}$/.test(d.name))
    .map((d) => d.name)
    .sort((a, b) => (a === SOURCE ? -1 : b === SOURCE ? 1 : a.localeCompare(b)));
}

export const itemKey = (item) => `${item.msgctxt ?? ""}\u0004${item.msgid}`;
/** A short stable handle for a message, used in the todo and fill files. */
export const shortId = (item) => createHash("sha1").update(itemKey(item)).digest("hex").slice(0, 7);
/** English text of a source (en_US) item, or of an item made by alignedCatalog. */
const englishOfAligned = new WeakMap();
export const englishOf = (item) => englishOfAligned.get(item) ?? (item.msgstr[0] || item.msgid);

/** BCP 47 tag of a catalog locale, for Intl (same mapping as src/i18n/locales.ts). */
export function bcp47(locale) {
  if (locale === "sr_SP") return "sr-RS";
  if (locale === "no_NO") return "nb-NO";
  return locale.replace("_", "-");
}

/** Messages a locale may leave equal to the English (names, units): locales/<locale>/same-as-english.txt, one id per line. */
export function sameAsEnglish(locale) {
  const path = join(LOCALES_DIR, locale, "same-as-english.txt");
  if (!existsSync(path)) return new Set();
  return new Set(
    readFileSync(path, "utf8")
      .split("\n")
      // "<id>" or "<id>\t# English", and "# …" comment lines
      .map((l) => l.trim().split(/\s/)[0])
      .filter((l) => l && !l.startsWith("#")),
  );
}

/**
 * A locale's catalog shaped after the source's: the same messages in the same order, with the
 * locale's translations where it has them (new locales start empty).
 */
export function alignedCatalog(locale, catalog) {
  const source = readCatalog(SOURCE, catalog);
  const current = readCatalog(locale, catalog);
  const translated = new Map((current?.items ?? []).map((i) => [itemKey(i), i.msgstr[0] ?? ""]));
  const po = new PO();
  po.headers = { ...source.headers, Language: locale };
  po.headerOrder = source.headerOrder;
  po.items = source.items.map((s) => {
    const item = new PO.Item();
    Object.assign(item, structuredClone({ ...s, msgstr: [translated.get(itemKey(s)) ?? ""] }));
    englishOfAligned.set(item, englishOf(s));
    return item;
  });
  return po;
}
