// Lists what a locale still lacks, in the format fill.mjs reads back.
// Usage: node scripts/i18n/todo.mjs <locale> [--max N]
//   Each message: a "#" line of context, then "<id>\t<English>" (newlines written as \n).
//   Write "<id>\t<translation>" lines to a file and pass it to fill.mjs.
import { alignedCatalog, bcp47, CATALOGS, englishOf, SOURCE, sameAsEnglish, shortId } from "./catalogs.mjs";
import { hasNoWords, shapeProblems } from "./message-shape.mjs";

const [locale, ...rest] = process.argv.slice(2);
if (!locale || locale === SOURCE) {
  console.error("usage: node scripts/i18n/todo.mjs <locale> [--max N]");
  process.exit(2);
}
const max = rest[0] === "--max" ? Number(rest[1]) : Number.POSITIVE_INFINITY;

const escapeLine = (text) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\t/g, "\\t");

const same = sameAsEnglish(locale);
let listed = 0;
let total = 0;
for (const catalog of CATALOGS) {
  for (const item of alignedCatalog(locale, catalog).items) {
    const english = englishOf(item);
    const translation = item.msgstr[0];
    const id = shortId(item);
    let why = null;
    if (!translation) why = "new";
    else if (translation === english && !same.has(id) && !hasNoWords(english)) why = "still English";
    else {
      const problems = shapeProblems(english, translation, bcp47(locale));
      if (problems.length) why = `fix (${problems.join("; ")}); now: ${escapeLine(translation)}`;
    }
    if (!why) continue;
    total++;
    if (listed >= max) continue;
    listed++;
    const notes = [
      ...item.extractedComments.filter((c) => c !== "js-lingui-explicit-id"),
      ...item.references,
    ];
    console.log(`# ${why} · ${catalog} · ${notes.join(" · ")}`);
    console.log(`${id}\t${escapeLine(english)}`);
  }
}
console.error(`${locale}: ${total} message(s) to translate${listed < total ? `, ${listed} listed` : ""}`);
