// npm run i18n:check — fails when a catalog is stale (the code's messages differ from
// locales/en_US) or when a locale present under locales/ has a message untranslated, left in
// English, or malformed (placeholders, tags, plural cases); the same for the starter templates'
// texts (locales/<locale>/starter-templates.json) and the alerts' (locales/<locale>/alerts.json),
// and a message that says a key term otherwise than the locale's glossary (locales/<locale>/glossary.json). A locale exists once its folder does;
// translators add one complete (scripts/i18n/README.md).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALL_LOCALES } from "../../src/i18n/locales.ts";
import { alertTextProblems } from "./alert-texts.ts";
import {
  bcp47,
  CATALOGS,
  catalogPath,
  englishOf,
  itemKey,
  presentLocales,
  ROOT,
  readCatalog,
  SOURCE,
  sameAsEnglish,
  shortId,
} from "./catalogs.mjs";
import { glossaryProblems } from "./glossary.ts";
import { hasNoWords, shapeProblems } from "./message-shape.mjs";
import { starterTextProblems } from "./starter-texts.ts";

const failures = [];
const locales = presentLocales();

// Stale: extract from the code (--overwrite: the English of explicit ids too), compare the
// source catalogs' messages, then put the files back
// as they were so the check never edits the tree.
const sourceMessages = (catalog) =>
  JSON.stringify(
    (readCatalog(SOURCE, catalog)?.items ?? []).map((i) => [itemKey(i), i.msgstr[0] ?? ""]).sort(),
  );
const before = new Map(CATALOGS.map((c) => [c, sourceMessages(c)]));
const saved = new Map(
  locales.flatMap((l) => CATALOGS.map((c) => [catalogPath(l, c), readFileSync(catalogPath(l, c), "utf8")])),
);
// How many messages each catalog has translated: the next extract must keep them all (an entry a
// merge left without its explicit-id comment reads as translated here and is dropped there).
const translated = (locale, catalog) =>
  (readCatalog(locale, catalog)?.items ?? []).filter((i) => i.msgstr[0]).length;
const translatedBefore = new Map(
  locales.flatMap((l) => CATALOGS.map((c) => [`${l}/${c}`, translated(l, c)])),
);
try {
  execFileSync("npx", ["lingui", "extract", "--clean", "--overwrite"], { cwd: ROOT, stdio: "pipe" });
  for (const c of CATALOGS) {
    if (sourceMessages(c) !== before.get(c)) {
      failures.push(`locales/${SOURCE}/${c}.po is stale: run npm run i18n:extract and translate what is new`);
    }
  }
  for (const l of locales)
    for (const c of CATALOGS) {
      const lost = translatedBefore.get(`${l}/${c}`) - translated(l, c);
      if (lost > 0 && sourceMessages(c) === before.get(c))
        failures.push(
          `locales/${l}/${c}.po: ${lost} translation(s) would be lost at the next extract (an entry malformed by a merge?)`,
        );
    }
} finally {
  for (const [path, text] of saved) writeFileSync(path, text);
}

// Entries run together (a msgid right under the previous entry's msgstr, as a union merge of two
// branches' catalogs leaves them) read as one here but lose their translations at the next extract.
for (const locale of locales)
  for (const catalog of CATALOGS) {
    const lines = readFileSync(catalogPath(locale, catalog), "utf8").split("\n");
    const at = lines.findIndex(
      (line, i) => line.startsWith("msgid ") && /^(msgstr|")/.test(lines[i - 1] ?? ""),
    );
    if (at >= 0)
      failures.push(
        `locales/${locale}/${catalog}.po:${at + 1}: two entries run together (a merge's leftover): split them`,
      );
  }

for (const locale of locales) {
  if (!ALL_LOCALES.includes(locale)) failures.push(`locales/${locale}: not a locale of spec §9`);
  if (locale === SOURCE) continue;
  const same = sameAsEnglish(locale);
  const problems = [];
  const messages = [];
  for (const catalog of CATALOGS) {
    const source = readCatalog(SOURCE, catalog);
    const target = readCatalog(locale, catalog);
    if (!target) {
      problems.push(`${catalog}.po missing`);
      continue;
    }
    const translations = new Map(target.items.map((i) => [itemKey(i), i.msgstr[0] ?? ""]));
    const known = new Set(source.items.map(itemKey));
    const stale = target.items.filter((i) => !known.has(itemKey(i)));
    if (stale.length) problems.push(`${catalog}: ${stale.length} message(s) no longer in the code`);
    for (const item of source.items) {
      const english = englishOf(item);
      const text = translations.get(itemKey(item));
      const id = shortId(item);
      if (text) messages.push({ id, english, text });
      if (!text) problems.push(`${id} untranslated: ${english}`);
      else if (text === english && !same.has(id) && !hasNoWords(english))
        problems.push(`${id} still English: ${english}`);
      else for (const p of shapeProblems(english, text, bcp47(locale))) problems.push(`${id} ${p}: ${text}`);
    }
  }
  problems.push(...starterTextProblems(join(ROOT, "locales"), join(ROOT, "starter-templates"), locale));
  problems.push(...alertTextProblems(join(ROOT, "locales"), locale));
  problems.push(...glossaryProblems(join(ROOT, "locales"), locale, messages));
  if (problems.length) {
    failures.push(
      `${locale}: ${problems.length} problem(s) (node scripts/i18n/todo.mjs ${locale} lists them)`,
    );
    for (const p of problems.slice(0, 5)) failures.push(`  ${p}`);
  }
}

if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`i18n: ${locales.length} locale(s) complete and current: ${locales.join(", ")}`);
