import { secretMark } from "../../contract/api/secret.ts";
import { redacted } from "./activity-details.ts";

/**
 * Where a request's secrets are, by its route's schemas: `true` for a field
 * the contract marks `secret(...)` (server/contract/api/secret.ts), else the
 * fields within that hold one. Array items and alternatives (anyOf, allOf)
 * are seen through; `*` stands for any key of a record. Built once per route
 * when it is added, so nothing is looked up per call.
 */
export type SecretFields = true | { readonly [field: string]: SecretFields };

type Node = Record<string, unknown>;

const maxDepth = 8;

/** The secret fields of a schema, or undefined when it marks none. */
export function secretFieldsOf(schema: unknown, depth = 0): SecretFields | undefined {
  if (schema === null || typeof schema !== "object" || depth > maxDepth) return undefined;
  const node = schema as Node;
  if (node[secretMark] === true) return true;
  let found: Record<string, SecretFields> | undefined;
  const add = (field: string, inner: SecretFields | undefined) => {
    if (inner === undefined) return;
    found ??= {};
    found[field] = merge(found[field], inner);
  };
  const addAll = (inner: SecretFields | undefined) => {
    if (inner === true) {
      // An alternative that is a secret as a whole (rare): every field of it is.
      add("*", true);
    } else if (inner) for (const [field, value] of Object.entries(inner)) add(field, value);
  };
  if (node.properties && typeof node.properties === "object")
    for (const [field, value] of Object.entries(node.properties as Node))
      add(field, secretFieldsOf(value, depth + 1));
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    add("*", secretFieldsOf(node.additionalProperties, depth + 1));
  if (node.patternProperties && typeof node.patternProperties === "object")
    for (const value of Object.values(node.patternProperties as Node))
      add("*", secretFieldsOf(value, depth + 1));
  for (const list of [node.anyOf, node.oneOf, node.allOf, node.prefixItems, [node.items]])
    if (Array.isArray(list)) for (const item of list) addAll(secretFieldsOf(item, depth + 1));
  return found;
}

function merge(a: SecretFields | undefined, b: SecretFields): SecretFields {
  if (a === undefined) return b;
  if (a === true || b === true) return true;
  const out: Record<string, SecretFields> = { ...a };
  for (const [field, value] of Object.entries(b)) out[field] = merge(out[field], value);
  return out;
}

/** A copy of `value` with what `fields` marks secret replaced by "[redacted]", at any depth. */
export function withoutMarkedSecrets(value: unknown, fields: SecretFields | undefined): unknown {
  if (fields === undefined || value === undefined) return value;
  if (fields === true) return redacted;
  if (Array.isArray(value)) return value.map((item) => withoutMarkedSecrets(item, fields));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [field, item] of Object.entries(value))
    out[field] = withoutMarkedSecrets(item, fields[field] ?? fields["*"]);
  return out;
}

/** Where the secrets of what the activity log keeps of a request are: the body's fields, and its query's under `query`. */
export function requestSecretFields(
  schema: { body?: unknown; querystring?: unknown } | undefined,
): SecretFields | undefined {
  const body = secretFieldsOf(schema?.body);
  const query = secretFieldsOf(schema?.querystring);
  // A body secret as a whole (none is today) keeps none of its fields.
  const fields = body === true ? { "*": true as const } : body;
  if (query === undefined) return fields;
  return { ...fields, query };
}
