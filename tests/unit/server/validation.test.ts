import type { ValidateFunction } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import {
  findNul,
  loadValidators,
  validationError,
  validatorCompiler,
} from "../../../server/api/pipeline/validation.ts";
import { LoginBody, RegisterBody } from "../../../server/contract/api/auth.ts";
import {
  SettingKeyParams,
  UserSettingBody,
  UserSettingKeyParams,
} from "../../../server/contract/api/settings.ts";
import { ApiError } from "../../../server/errors.ts";

// Ajv loads on first use (the first check answers a promise); these checks call the validator directly.
beforeAll(() => loadValidators());

/** Validates like a route does and answers the API error (or undefined when valid). */
function check(schema: object, value: unknown, httpPart = "body") {
  const validate = validatorCompiler({ schema, httpPart, method: "POST", url: "/" }) as ValidateFunction;
  if (validate(value)) return undefined;
  const err = validationError(validate.errors ?? [], httpPart);
  return { status: err.status, code: err.code, metadata: err.metadata };
}

describe("schema failures in the API's codes (reference §7)", () => {
  it("a missing field is ErrFieldRequired with its name", () => {
    expect(check(LoginBody, { email: "a@b.cd" })).toEqual({
      status: 400,
      code: "ErrFieldRequired",
      metadata: { field: "password" },
    });
  });

  it("a wrong type is ErrFieldType with the field and the expected type", () => {
    expect(check(LoginBody, { email: 5, password: "x" })).toMatchObject({
      code: "ErrFieldType",
      metadata: { field: "email", type: "string" },
    });
    expect(check(LoginBody, "text")).toMatchObject({ code: "ErrFieldType", metadata: { field: "body" } });
  });

  it("bodies are not coerced: a number is not a string", () => {
    expect(check(UserSettingBody, { value: 42 })?.code).toBe("ErrFieldType");
  });

  it("path params are coerced from text and checked against their pattern", () => {
    expect(check(SettingKeyParams, { key: "panel.x" }, "params")).toBeUndefined();
    expect(check(UserSettingKeyParams, { key: "a b" }, "params")).toEqual({
      status: 400,
      code: "ErrFieldInvalid",
      metadata: { field: "key" },
    });
  });

  it("a string over its maximum is ErrFieldLength with min and max", () => {
    expect(check(UserSettingBody, { value: "x".repeat(4001) })).toEqual({
      status: 400,
      code: "ErrFieldLength",
      metadata: { field: "value", min: 0, max: 4000 },
    });
    expect(
      check(RegisterBody, { username: "u".repeat(101), email: "a@b.cd", password: "p" })?.metadata,
    ).toEqual({
      field: "username",
      min: 0,
      max: 100,
    });
  });

  it("unknown fields are not refused", () => {
    expect(check(LoginBody, { email: "a@b.cd", password: "x", admin: true })).toBeUndefined();
  });

  it("unknown fields are dropped where the schema closes the object", () => {
    const closed = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
    const body = { a: "x", b: "y" };
    expect(check(closed, body)).toBeUndefined();
    expect(body).toEqual({ a: "x" });
  });

  it("maps numeric ranges and e-mail formats", () => {
    const port = { type: "object", properties: { port: { type: "integer", minimum: 1, maximum: 65535 } } };
    expect(check(port, { port: 0 })).toEqual({
      status: 400,
      code: "ErrFieldNotBetween",
      metadata: { field: "port", min: 1, max: 65535 },
    });
    const nested = { type: "object", properties: { a: { type: "object", required: ["b"] } } };
    expect(check(nested, { a: {} })?.metadata).toEqual({ field: "a.b" });
  });

  it("keeps the message a template with the values in metadata", () => {
    const err = validationError([], "body");
    expect(err).toBeInstanceOf(ApiError);
    expect(err.toBody()).toEqual({ error: { code: "ErrFieldInvalid", msg: "invalid request" } });
  });
});

describe("findNul", () => {
  it("finds a NUL in a string, a nested value or a key, and names where", () => {
    expect(findNul({ a: "ok", b: ["x", "y\u0000"] }, "")).toBe("b.1");
    expect(findNul({ "k\u0000": 1 }, "")).toBe("k\u0000");
    expect(findNul("a\u0000", "")).toBe("");
    expect(findNul({ a: 1, b: null, c: true, d: "fine" }, "")).toBeUndefined();
  });
});
