import { boundedJson, boundedYaml, DocumentTooBig, templateBounds } from "./bounded-document.ts";
import { YamlNotLoaded } from "./yaml.ts";

/**
 * A template or egg file's text as a document: JSON, else YAML (Pelican
 * exports eggs as YAML). The YAML reader is js-yaml's safe default schema:
 * plain data, no custom types. Both are bounded (size, depth, and the tree
 * YAML aliases expand to): a document over them is refused, not walked.
 * Text that is not JSON is read as YAML: await loadYaml() first.
 */
export function parseDocumentText(
  text: string,
): { ok: true; document: unknown } | { ok: false; problem: string; tooBig?: true } {
  try {
    return { ok: true, document: boundedJson(text, templateBounds) };
  } catch (jsonError) {
    if (jsonError instanceof DocumentTooBig)
      return { ok: false, problem: `too big: ${jsonError.message}`, tooBig: true };
    if (/^\s*[[{]/.test(text))
      return { ok: false, problem: `not valid JSON: ${(jsonError as Error).message}` };
  }
  try {
    return { ok: true, document: boundedYaml(text, templateBounds) };
  } catch (yamlError) {
    if (yamlError instanceof YamlNotLoaded) throw yamlError;
    if (yamlError instanceof DocumentTooBig)
      return { ok: false, problem: `too big: ${yamlError.message}`, tooBig: true };
    return { ok: false, problem: `neither JSON nor YAML: ${(yamlError as Error).message.split("\n")[0]}` };
  }
}
