import { convertEgg, isEgg } from "./egg.ts";
import { convertLegacyTemplate } from "./legacy.ts";
import { type ParseResult, parseTemplate } from "./parse.ts";

export type ImportResult = ParseResult & { changes: string[] };

/**
 * Reads a template of any known vintage (v3, the v2.6 branch, pufferd v1) or
 * a Pterodactyl / Pelican egg: converts it to v3, then parses. `changes` lists the conversions
 * made, empty for a v3 document. Repos and uploads come in through here.
 */
export function importTemplate(input: unknown): ImportResult {
  if (isEgg(input)) {
    const egg = convertEgg(input);
    if (!egg.ok) return { ok: false, problems: egg.problems, changes: egg.changes };
    return { ...parseTemplate(egg.document), changes: egg.changes };
  }
  const { document, changes } = convertLegacyTemplate(input);
  return { ...parseTemplate(document), changes };
}
