import type { TSchema } from "typebox";
import type { ApiError } from "../../errors.ts";
import { type SchemaFailure, validationError } from "../../http/validation-error.ts";

/**
 * A request part checked against its route's TypeBox schema, as the panel's
 * Ajv validators check theirs (server/api/pipeline/validation.ts), with TypeBox's
 * own checker instead (no second validator library in the daemon): defaults
 * filled in, fields the schema does not name dropped, and for the query and
 * path (text on the wire) values converted to the schema's types; bodies
 * are not converted. A failure is the same ApiError the panel answers.
 */
export async function checked(
  schema: TSchema,
  value: unknown,
  part: "params" | "querystring" | "body",
): Promise<{ value: unknown } | { error: ApiError }> {
  const { Value } = await loadValue();
  let result = Value.Default(schema, Value.Clone(value));
  if (part !== "body") result = Value.Convert(schema, result);
  result = Value.Clean(schema, result);
  if (Value.Check(schema, result)) return { value: result };
  const first = Value.Errors(schema, result).slice(0, 1);
  return {
    error: validationError(
      first.map((e) => failureOf(schema, e)),
      part,
    ),
  };
}

/**
 * TypeBox's checker loads on the first request, not at start: with it
 * comes every string format TypeBox knows (dozens of Unicode regular
 * expressions built as it loads), which an idle node does not need.
 */
let valueModule: Promise<typeof import("typebox/value")> | undefined;
const loadValue = () => (valueModule ??= import("typebox/value"));

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
