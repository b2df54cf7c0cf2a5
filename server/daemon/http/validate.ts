import type { TSchema } from "typebox";
import type { ApiError } from "../../errors.ts";
import { checkerOf } from "../../http/schema-check.ts";
import { type SchemaFailure, validationError } from "../../http/validation-error.ts";

/**
 * A request part checked against its route's TypeBox schema, as the panel's
 * Ajv validators check theirs (server/api/pipeline/validation.ts), with TypeBox's
 * own checker instead (no second validator library in the daemon), compiled
 * once per schema (server/http/schema-check.ts): defaults filled in, fields
 * the schema does not name dropped, and for the query and path (text on the
 * wire) values converted to the schema's types; bodies are not converted. A
 * failure is the same ApiError the panel answers, naming the field.
 */
export async function checked(
  schema: TSchema,
  value: unknown,
  part: "params" | "querystring" | "body",
): Promise<{ value: unknown } | { error: ApiError }> {
  const checker = await checkerOf(schema);
  let result = checker.Default(structuredClone(value));
  if (part !== "body") result = checker.Convert(result);
  result = checker.Clean(result);
  if (checker.Check(result)) return { value: result };
  const first = checker.Errors(result).slice(0, 1);
  return {
    error: validationError(
      first.map((e) => failureOf(schema, e)),
      part,
    ),
  };
}

/** TypeBox's error in Ajv's shape: the missing field by name, and the failing value's own schema. */
function failureOf(
  root: TSchema,
  error: { keyword: string; schemaPath: string; instancePath: string; params: object },
): SchemaFailure {
  const params = error.params as { requiredProperties?: string[] };
  return {
    keyword: error.keyword,
    instancePath: error.instancePath,
    params: params.requiredProperties ? { missingProperty: params.requiredProperties[0] } : params,
    parentSchema: schemaAt(root, error.schemaPath),
  };
}

/** The sub-schema a JSON pointer (`#/properties/id`) names. */
function schemaAt(root: TSchema, pointer: string): object | undefined {
  let at: unknown = root;
  for (const key of pointer.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    at = (at as Record<string, unknown> | undefined)?.[key.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return at as object | undefined;
}
