import type { default as Ajv, ValidateFunction } from "ajv";
import type { FastifyInstance, FastifySchemaCompiler, preValidationHookHandler } from "fastify";
import { ApiError } from "../../errors.ts";

export { validationError } from "../../http/validation-error.ts";

/**
 * Two validators: bodies are checked strictly (no type coercion), while query
 * strings and path params — which arrive as text — are coerced to the
 * schema's types. Unknown fields are dropped only where a schema says
 * `additionalProperties: false`; elsewhere they pass through, so handlers
 * pick the fields they use and never hand a whole body to storage.
 */
interface Validators {
  strict: Ajv;
  coercing: Ajv;
}

let validators: Validators | undefined;
let loading: Promise<Validators> | undefined;

/**
 * Ajv (about 0.8 MiB of heap with its two instances) loads with the first
 * request that has a schema to check, not at start. Until then a check
 * answers a promise, which Fastify awaits.
 */
export function loadValidators(): Promise<Validators> {
  loading ??= import("ajv").then((module) => {
    // CommonJS: the class is module.exports, also exported as its `default`.
    const AjvClass = (module.default as unknown as { default?: typeof Ajv }).default ?? module.default;
    const make = (coerceTypes: boolean | "array") =>
      new AjvClass({
        coerceTypes,
        removeAdditional: true,
        useDefaults: true,
        allErrors: false,
        verbose: true,
        strict: false,
      });
    validators = { strict: make(false), coercing: make("array") };
    return validators;
  });
  return loading;
}

/**
 * Each route's validator is compiled on the route's first request, not at
 * start: most routes of an idle panel are never called, and each compiled
 * validator keeps its generated source and code in memory. (Fastify reads
 * `errors` off the function it was given after a failed check.)
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean | Promise<boolean> => {
    if (compiled === undefined) {
      if (validators === undefined) return loadValidators().then(() => validate(data));
      compiled = (httpPart === "body" ? validators.strict : validators.coercing).compile(schema as object);
    }
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = undefined as ValidateFunction["errors"];
  // Fastify's type brands the promise it accepts; any promise of a boolean works (validation.js).
  return validate as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
};

/** The path of the first string (or key) holding a NUL character, or undefined. */
export function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const inner = path ? `${path}.${key}` : key;
    if (key.includes("\u0000")) return inner;
    const found = findNul(item, inner);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold NUL, and no field of ours needs it: refuse it in
 * any body, query or path string up front, so both databases answer a 400
 * instead of one of them failing with a 500. Path and query are checked on
 * request, before the access guard looks a server id up (install this hook
 * before the guard); the body once it is parsed, on routes that take one.
 */
export function installNulGuard(app: FastifyInstance): void {
  const refuse = (parts: [string, unknown][]) => {
    for (const [part, value] of parts) {
      const field = findNul(value, "");
      if (field !== undefined) {
        throw new ApiError(400, "ErrFieldMustBePrintable", "${field} must be printable", {
          field: field || part,
        });
      }
    }
  };
  app.addHook("onRequest", (request, _reply, done) => {
    // Query and path strings are decoded from the URL, which Node's parser never lets carry a raw
    // NUL: one can only come from a %00 in it. Without one there is nothing to look for.
    if (request.url.includes("%00")) {
      refuse([
        ["query", request.query],
        ["params", request.params],
      ]);
    }
    done();
  });
  // Only on routes a body can come to: Fastify reads none for GET and HEAD, and a route without
  // preValidation hooks skips their runner.
  const checkBody: preValidationHookHandler = (request, _reply, done) => {
    if (request.body !== undefined) refuse([["body", request.body]]);
    done();
  };
  app.addHook("onRoute", (route) => {
    if ([route.method].flat().every((method) => bodyless.has(method))) return;
    route.preValidation = [
      checkBody,
      ...(route.preValidation === undefined ? [] : [route.preValidation].flat()),
    ];
  });
}

/** The methods Fastify never reads a body for. */
const bodyless = new Set(["GET", "HEAD", "TRACE"]);
