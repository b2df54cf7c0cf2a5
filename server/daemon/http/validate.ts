import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import type { ApiError } from "../../errors.ts";
import { type SchemaFailure, validationError } from "../../http/validation-error.ts";

/**
 * A request part checked against its route's TypeBox schema, as the panel's
 * Ajv validators check theirs (server/http/validation.ts), with TypeBox's
 * own checker instead (no second validator library in the daemon): defaults
 * filled in, fields the schema does not name dropped, and for the query and
 * path (text on the wire) values converted to the schema's types; bodies
 * are not converted. A failure is the same ApiError the panel answers.
 */
export function checked(
  schema: TSchema,
  value: unknown,
  part: "params" | "querystring" | "body",
): { value: unknown } | { error: ApiError } {
  let result = Value.Default(schema, Value.Clone(value));
  if (part !== "body") result = Value.Convert(schema, result);
  result = Value.Clean(schema, result);
  if (Value.Check(schema, result)) return { value: result };
  return {
    error: validationError(
      Value.Errors(schema, result)
        .slice(0, 1)
        .map((e) => failureOf(schema, e)),
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
