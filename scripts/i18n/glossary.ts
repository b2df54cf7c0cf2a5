// Each locale's glossary of the panel's key terms (locales/<locale>/glossary.json): the one word a
// locale uses for a task, a backup, Kill…, the variants it must not use, and the form of address
// its messages take. npm run i18n:check holds every catalog message to it (scripts/i18n/README.md).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const GLOSSARY_FILE = "glossary.json";

/**
 * The key terms, by the English word a message says them with. A message whose English matches
 * `en` says the term, so its translation must match the locale's `use` and none of its `avoid`.
 */
const KEY_TERMS = {
  Task: /\btasks?\b/i,
  Activity: /\bactivity\b/i,
  Backup: /\bbackups?\b|\bbacked up\b/i,
  Template: /\btemplates?\b/i,
  "Memory limit": /\bmemory limits?\b/i,
  "Disk limit": /\bdisk limits?\b/i,
  Kill: /\bkill(s|ed|ing)?\b/i,
  "Not live": /\bnot live\b/i,
  Trigger: /\btrigger(s|ed)?\b/i,
  Egg: /\beggs?\b/i,
  Crash: /\bcrash(es|ed)?\b/i,
} as const satisfies Record<string, RegExp>;

type KeyTerm = keyof typeof KEY_TERMS;

interface TermEntry {
  /** The word itself, as the locale's catalog translates the English message of that one word. */
  term: string;
  /** A regular expression (case-insensitive) every translation of a message saying the term matches. */
  use?: string;
  /** Known wrong variants (regular expressions, case-insensitive) no translation may contain. */
  avoid?: string[];
  /** Messages (ids from todo.mjs) where the English word means something else. */
  except?: string[];
  /** The word is this term's alone: a message whose English does not say the term may not match `use`. */
  reserved?: boolean;
  /** Why, for the translator who comes next. */
  note?: string;
}

interface Glossary {
  /** How the locale's messages address the user: "formal" or "informal". */
  address?: "formal" | "informal";
  /** Words of the other form of address (regular expressions, case-insensitive): no message uses them. */
  avoidAddress?: string[];
  terms: Partial<Record<KeyTerm, TermEntry>>;
}

/** One catalog message: its short id, English and translation. */
export interface GlossaryMessage {
  id: string;
  english: string;
  text: string;
}

function readGlossary(localesDir: string, locale: string): Glossary | null | "invalid" {
  const path = join(localesDir, locale, GLOSSARY_FILE);
  if (!existsSync(path)) return null;
  try {
    const glossary = JSON.parse(readFileSync(path, "utf8")) as Glossary;
    return glossary && typeof glossary.terms === "object" ? glossary : "invalid";
  } catch {
    return "invalid";
  }
}

// \b as a reader means it: between a letter of any script and what is not one (JavaScript's own
// \b knows only ASCII letters, so \bты\b would never match).
const wordBoundary = "(?:(?<=[\\p{L}\\p{N}_])(?![\\p{L}\\p{N}_])|(?<![\\p{L}\\p{N}_])(?=[\\p{L}\\p{N}_]))";
const pattern = (source: string) => new RegExp(source.replaceAll("\\b", wordBoundary), "iu");
// The text a reader sees: placeholders and tags are names, not words; Arabic's short vowels and
// tatweel are left out, so a pattern matches a word however it is vocalised.
const words = (text: string) =>
  text.replace(/\{\w+\}|<\/?\d+\/?>/g, " ").replace(/[\u064B-\u0652\u0670\u0640]/g, "");

/** What one locale's messages say against its glossary. */
export function glossaryProblems(localesDir: string, locale: string, messages: GlossaryMessage[]): string[] {
  const glossary = readGlossary(localesDir, locale);
  if (glossary === null) return [`${GLOSSARY_FILE} missing`];
  if (glossary === "invalid") return [`${GLOSSARY_FILE}: not a glossary ({"terms": {…}})`];
  const problems: string[] = [];
  for (const key of Object.keys(glossary.terms))
    if (!(key in KEY_TERMS)) problems.push(`glossary: "${key}" is not a key term (scripts/i18n/glossary.ts)`);
  const avoidAddress = (glossary.avoidAddress ?? []).map(pattern);
  for (const { id, english, text } of messages) {
    const seen = words(text);
    for (const re of avoidAddress) {
      const hit = seen.match(re);
      if (hit)
        problems.push(
          `${id} addresses the user ${glossary.address === "formal" ? "informally" : "formally"} ("${hit[0]}"): ${text}`,
        );
    }
    for (const [key, entry] of Object.entries(glossary.terms) as [KeyTerm, TermEntry][]) {
      const en = KEY_TERMS[key];
      if (!en || entry.except?.includes(id)) continue;
      if (english === key && text !== entry.term)
        problems.push(
          `${id} is the term "${key}" itself: the glossary says "${entry.term}", the catalog "${text}"`,
        );
      if (!en.test(english)) {
        if (entry.reserved && entry.use && pattern(entry.use).test(seen))
          problems.push(`${id} says "${entry.term}" (${key}) where the English does not: ${text}`);
        continue;
      }
      for (const avoid of entry.avoid ?? []) {
        const hit = seen.match(pattern(avoid));
        if (hit) problems.push(`${id} says "${hit[0]}" for ${key} (the glossary: ${entry.term}): ${text}`);
      }
      if (entry.use && !pattern(entry.use).test(seen))
        problems.push(`${id} does not say ${key} as "${entry.term}": ${text}`);
    }
  }
  return problems;
}
