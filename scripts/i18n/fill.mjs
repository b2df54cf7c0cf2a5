// Writes translations into a locale's catalogs (creating the locale if it is new).
// Usage: node scripts/i18n/fill.mjs <locale> <file>...
//   Lines "<id>\t<translation>" (ids from todo.mjs; \n and \t escaped); "#" lines and blanks are
//   skipped. "<id>\t=" keeps the English on purpose (a name or unit that is the same in this
//   language) and records it in locales/<locale>/same-as-english.txt.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  alignedCatalog,
  bcp47,
  CATALOGS,
  englishOf,
  LOCALES_DIR,
  SOURCE,
  sameAsEnglish,
  shortId,
  writeCatalog,
} from "./catalogs.mjs";
import { shapeProblems } from "./message-shape.mjs";

const [locale, ...files] = process.argv.slice(2);
if (!locale || locale === SOURCE || !files.length) {
  console.error("usage: node scripts/i18n/fill.mjs <locale> <file>...");
  process.exit(2);
}
const unescapeLine = (text) =>
  text.replace(/\\(\\|n|t)/g, (_, c) => (c === "n" ? "\n" : c === "t" ? "\t" : "\\"));

const given = new Map();
for (const file of files) {
  for (const [n, line] of readFileSync(file, "utf8").split("\n").entries()) {
    if (!line.trim() || line.startsWith("#")) continue;
    const tab = line.indexOf("\t");
    if (tab < 0) {
      console.error(`${file}:${n + 1}: no tab between id and translation, skipped`);
      continue;
    }
    given.set(line.slice(0, tab).trim(), unescapeLine(line.slice(tab + 1)));
  }
}

mkdirSync(join(LOCALES_DIR, locale), { recursive: true });
const same = sameAsEnglish(locale);
const catalogs = CATALOGS.map((name) => ({ name, po: alignedCatalog(locale, name) }));
let filled = 0;
let rejected = 0;
const used = new Set();
for (const { po } of catalogs) {
  for (const item of po.items) {
    const id = shortId(item);
    if (!given.has(id)) continue;
    used.add(id);
    const english = englishOf(item);
    let text = given.get(id);
    if (text === "=") {
      text = english;
      if (!same.has(id)) {
        appendFileSync(
          join(LOCALES_DIR, locale, "same-as-english.txt"),
          `${id}\t# ${english.replace(/\n/g, " ")}\n`,
        );
        same.add(id);
      }
    }
    const problems = shapeProblems(english, text, bcp47(locale));
    if (problems.length) {
      rejected++;
      console.error(`rejected ${id} (${problems.join("; ")}): ${text}`);
      continue;
    }
    item.msgstr = [text];
    filled++;
  }
}
for (const { name, po } of catalogs) writeCatalog(locale, name, po);
const unknown = [...given.keys()].filter((id) => !used.has(id));
if (unknown.length) console.error(`unknown ids (message changed or typo): ${unknown.join(", ")}`);
console.error(`${locale}: ${filled} written, ${rejected} rejected; run todo.mjs for what remains`);
process.exit(rejected || unknown.length ? 1 : 0);
