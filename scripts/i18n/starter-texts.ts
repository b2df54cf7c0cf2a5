// The starter templates' texts per locale (locales/<locale>/starter-templates.json, read by
// server/panel/templates/starter-texts.ts): what npm run i18n:check finds wrong in one locale's.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { englishTexts, STARTER_TEXTS_FILE } from "../../server/panel/templates/starter-texts.ts";

/** Each starter template's English texts, by template name. */
export function starterEnglish(starterDir: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const name of readdirSync(starterDir)) {
    const file = join(starterDir, name, `${name}.json`);
    if (existsSync(file)) out[name] = englishTexts(JSON.parse(readFileSync(file, "utf8")));
  }
  return out;
}

// What a translation must keep as written: numbers, paths, addresses, and the literal values a
// user types (latest, stable).
const literals = (english: string): string[] => [
  ...(english.match(/[^\s,;()]*[\d/][^\s,;()]*/g) ?? []).map((t) => t.replace(/[.;:]+$/, "")),
  ...(english.match(/\b(latest|stable)\b/g) ?? []),
];

/** Problems of one locale's starter texts: missing, left in English, literals lost, stale keys. */
export function starterTextProblems(localesDir: string, starterDir: string, locale: string): string[] {
  const path = join(localesDir, locale, STARTER_TEXTS_FILE);
  if (!existsSync(path)) return [`${STARTER_TEXTS_FILE} missing`];
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    return [`${STARTER_TEXTS_FILE}: ${(err as Error).message}`];
  }
  const { sameAsEnglish = [], ...texts } = file as {
    sameAsEnglish?: string[];
    [template: string]: Record<string, string> | string[] | undefined;
  };
  const same = new Set(sameAsEnglish);
  const problems: string[] = [];
  const english = starterEnglish(starterDir);
  for (const [template, keys] of Object.entries(english)) {
    for (const [key, en] of Object.entries(keys)) {
      const id = `starter ${template}/${key}`;
      const text = (texts[template] as Record<string, string> | undefined)?.[key];
      if (typeof text !== "string" || !text.trim()) problems.push(`${id} untranslated: ${en}`);
      else if (text === en && !same.has(`${template}/${key}`)) problems.push(`${id} still English: ${en}`);
      else
        for (const literal of literals(en))
          if (!text.includes(literal)) problems.push(`${id} lost "${literal}": ${text}`);
    }
  }
  for (const [template, keys] of Object.entries(texts))
    for (const key of Object.keys(keys ?? {}))
      if (english[template]?.[key] === undefined)
        problems.push(`starter ${template}/${key}: no longer in the starter templates`);
  return problems;
}
