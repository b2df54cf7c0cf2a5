import type { TSchema } from "typebox";
import type { Validator } from "typebox/compile";

/**
 * TypeBox's compiled checkers, one per schema, made on the schema's first use
 * and kept: the daemon checks its requests (and, in tests, its answers) with
 * them, the panel's NodeHttp each node answer. TypeBox loads with the first
 * check, not at start: with it come the string formats it knows (dozens of
 * Unicode regular expressions built as it loads), which an idle node does
 * not need.
 */
const compiled = new WeakMap<TSchema, Validator>();
let compiler: Promise<typeof import("typebox/compile")> | undefined;

export async function checkerOf(schema: TSchema): Promise<Validator> {
  const known = compiled.get(schema);
  if (known) return known;
  compiler ??= import("typebox/compile");
  const { Compile } = await compiler;
  let validator = compiled.get(schema);
  if (!validator) {
    validator = Compile(schema);
    compiled.set(schema, validator);
  }
  return validator;
}

/** Where a value first breaks its schema: the JSON path (`servers.3.name`, "" for the value itself), and how. */
export interface SchemaBreak {
  path: string;
  keyword: string;
  message: string;
}

/** The first place `value` breaks `schema`, or undefined when it matches. */
export async function firstBreak(schema: TSchema, value: unknown): Promise<SchemaBreak | undefined> {
  const checker = await checkerOf(schema);
  if (checker.Check(value)) return undefined;
  const [error] = checker.Errors(value);
  if (!error) return { path: "", keyword: "unknown", message: "does not match" };
  const params = error.params as { requiredProperties?: string[] };
  const at = error.instancePath
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"))
    .join(".");
  const missing = params.requiredProperties?.[0];
  return {
    path: missing === undefined ? at : at ? `${at}.${missing}` : missing,
    keyword: error.keyword,
    message: error.message,
  };
}
