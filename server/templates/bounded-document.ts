import { yaml } from "./yaml.ts";

/**
 * Bounds on a JSON or YAML document read from a user, an import or a template repository. YAML
 * aliases let a 1 KB text stand for a tree of billions of nodes (each `*a` is the same object
 * again), which costs nothing to parse but everything to walk: js-yaml has no alias cap, so the
 * expanded tree is counted instead — every visit of a shared node counts, which is what a walk
 * over it would pay — and the count stops at the cap, so a bomb is refused after `maxNodes` steps.
 * The caps are far above real documents: the 664 templates and eggs of the test corpora reach
 * 666 nodes, depth 9 and 240 KB.
 */
export interface DocumentBounds {
  maxBytes: number;
  maxDepth: number;
  maxNodes: number;
}

/** Templates and eggs, from a repository, an upload or a paste. */
export const templateBounds: DocumentBounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 64, maxNodes: 100_000 };

/** A game server's own config file that an egg edits before each start (its size is capped by the node). */
export const configFileBounds: DocumentBounds = {
  maxBytes: 4 * 1024 * 1024,
  maxDepth: 128,
  maxNodes: 1_000_000,
};

/** Why a document is refused, in words for its author; undefined when it is within bounds. */
export function documentTooBig(document: unknown, bounds: DocumentBounds): string | undefined {
  let nodes = 0;
  // An explicit stack: a deep document must not exhaust the call stack before its depth is judged.
  const stack: { value: unknown; depth: number }[] = [{ value: document, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop() as { value: unknown; depth: number };
    if (++nodes > bounds.maxNodes) {
      return `it expands to more than ${bounds.maxNodes} values (YAML aliases repeat what they name)`;
    }
    if (depth > bounds.maxDepth) return `it nests deeper than ${bounds.maxDepth} levels`;
    if (typeof value !== "object" || value === null) continue;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      stack.push({ value: child, depth: depth + 1 });
    }
  }
  return undefined;
}

export class DocumentTooBig extends Error {}

/** Refuses a text over the size cap before any parser sees it. */
export function checkDocumentSize(text: string, bounds: DocumentBounds): void {
  // A UTF-16 unit is at most 3 UTF-8 bytes: encode only a text that might be over.
  const over =
    text.length > bounds.maxBytes ||
    (text.length * 3 > bounds.maxBytes && new TextEncoder().encode(text).length > bounds.maxBytes);
  if (over) {
    throw new DocumentTooBig(`it is larger than ${bounds.maxBytes / 1024 / 1024} MiB`);
  }
}

/** JSON.parse within bounds: throws DocumentTooBig (or the parser's SyntaxError). */
export function boundedJson(text: string, bounds: DocumentBounds): unknown {
  checkDocumentSize(text, bounds);
  return checked(JSON.parse(text), bounds);
}

/** js-yaml's safe load within bounds (after loadYaml()): throws DocumentTooBig (or the parser's YAMLException). */
export function boundedYaml(text: string, bounds: DocumentBounds): unknown {
  checkDocumentSize(text, bounds);
  return checked(yaml().load(text), bounds);
}

function checked(document: unknown, bounds: DocumentBounds): unknown {
  const problem = documentTooBig(document, bounds);
  if (problem) throw new DocumentTooBig(problem);
  return document;
}
