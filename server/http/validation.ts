import Ajv, { type ErrorObject } from "ajv";
import type { FastifySchemaCompiler } from "fastify";
import { ApiError } from "../errors.ts";

/**
 * Two validators: bodies are checked strictly (no type coercion, unknown
 * fields dropped), while query strings and path params — which arrive as
 * text — are coerced to the schema's types.
 */
function makeAjv(coerceTypes: boolean | "array"): Ajv {
  return new Ajv({
    coerceTypes,
    removeAdditional: true,
    useDefaults: true,
    allErrors: false,
    verbose: true,
    strict: false,
  });
}

const strict = makeAjv(false);
const coercing = makeAjv("array");

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === "body" ? strict : coercing).compile(schema as object);

/** Turns the first schema failure into the API's error codes (reference §7). */
export function validationError(errors: readonly ErrorObject[], part: string): ApiError {
  const e = errors[0];
  if (!e) return new ApiError(400, "ErrFieldInvalid", "invalid request");
  const base = e.instancePath.replace(/^\//, "").replaceAll("/", ".");
  const field = base || part;
  const schema = (e.parentSchema ?? {}) as Record<string, number | undefined>;
  switch (e.keyword) {
    case "required": {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const name = base ? `${base}.${missing}` : missing;
      return new ApiError(400, "ErrFieldRequired", "${field} is required", { field: name });
    }
    case "type":
      return new ApiError(400, "ErrFieldType", "${field} must be of type ${type}", {
        field,
        type: String((e.params as { type: string }).type),
      });
    case "minLength":
    case "maxLength":
      return new ApiError(400, "ErrFieldLength", "${field} must be between ${min} and ${max} characters", {
        field,
        min: schema.minLength ?? 0,
        max: schema.maxLength ?? Number.MAX_SAFE_INTEGER,
      });
    case "minimum":
    case "maximum":
      return new ApiError(400, "ErrFieldNotBetween", "${field} must be between ${min} and ${max}", {
        field,
        min: schema.minimum ?? Number.MIN_SAFE_INTEGER,
        max: schema.maximum ?? Number.MAX_SAFE_INTEGER,
      });
    case "format":
      if ((e.params as { format: string }).format === "email") {
        return new ApiError(400, "ErrFieldNotEmail", "${field} must be an email address", { field });
      }
      return new ApiError(400, "ErrFieldInvalid", "${field} is not valid", { field });
    default:
      return new ApiError(400, "ErrFieldInvalid", "${field} is not valid", { field });
  }
}
