import { convertLegacyTemplate } from "./legacy.ts";
import { type ParseResult, parseTemplate } from "./parse.ts";

export type ImportResult = ParseResult & { changes: string[] };

/**
 * Reads a template of any known vintage (v3, the v2.6 branch, pufferd v1):
 * converts older shapes to v3, then parses. `changes` lists the conversions
 * made, empty for a v3 document. Repos and uploads come in through here.
 */
export function importTemplate(input: unknown): ImportResult {
  const { document, changes } = convertLegacyTemplate(input);
  return { ...parseTemplate(document), changes };
}
