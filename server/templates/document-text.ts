import { load } from "js-yaml";

/**
 * A template or egg file's text as a document: JSON, else YAML (Pelican
 * exports eggs as YAML). The YAML reader is js-yaml's safe default schema:
 * plain data, no custom types.
 */
export function parseDocumentText(
  text: string,
): { ok: true; document: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, document: JSON.parse(text) };
  } catch (jsonError) {
    if (/^\s*[[{]/.test(text))
      return { ok: false, problem: `not valid JSON: ${(jsonError as Error).message}` };
  }
  try {
    return { ok: true, document: load(text) };
  } catch (yamlError) {
    return { ok: false, problem: `neither JSON nor YAML: ${(yamlError as Error).message.split("\n")[0]}` };
  }
}
