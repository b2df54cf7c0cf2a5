import type { VariableValue } from "./types.ts";

/** Values a `${name}` token may take, by name. */
export type TokenValues = Readonly<Record<string, VariableValue>>;

const token = /\$\{([^}]*)\}/g;

/**
 * Replaces `${name}` tokens (templates.md §3): no functions, defaults,
 * escapes or nesting; unknown tokens stay as they are, and `$NAME` is left
 * for whatever reads the text. One pass, so a value that itself contains
 * `${…}` is not expanded again (the Go panel's result would depend on map
 * order there).
 */
export function replaceTokens(text: string, values: TokenValues): string {
  if (!text.includes("${")) return text;
  return text.replace(token, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** The `${name}` tokens in a text whose names are not in `values`, for checks and messages. */
export function unknownTokens(text: string, values: TokenValues): string[] {
  return [...text.matchAll(token)].map((match) => match[1]).filter((name) => !Object.hasOwn(values, name));
}
