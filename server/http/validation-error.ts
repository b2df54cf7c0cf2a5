import { ApiError } from "../errors.ts";

/**
 * One failed schema check as Ajv reports it (the panel's validators), and
 * as the daemon's TypeBox checks are put (server/daemon/http/validate.ts).
 * `parentSchema` is the schema of the failing value, for its limits.
 */
export interface SchemaFailure {
  keyword: string;
  instancePath: string;
  params: object;
  parentSchema?: object;
}

/** Turns the first schema failure into the API's error codes (reference §7). */
export function validationError(errors: readonly SchemaFailure[], part: string): ApiError {
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
