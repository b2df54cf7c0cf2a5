import { describe, expect, it } from "vitest";
import { fillTemplate, routeError, toApiError } from "../../../src/api/errors";
import { maskSecrets } from "../../../src/api/maskSecrets";

const req = { method: "POST", url: "/api/x" };

describe("error object", () => {
  it("reads code, msg and metadata from the envelope", () => {
    const e = toApiError(req, 400, "Bad Request", {
      error: { code: "ErrFieldRequired", msg: "${field} is required", metadata: { field: "email" } },
    });
    expect(e).toMatchObject({ status: 400, code: "ErrFieldRequired", msg: "${field} is required" });
    expect(e.metadata).toEqual({ field: "email" });
    expect(e.request).toBe(req);
  });

  it("defaults to ErrUnknownError without an envelope (empty 403, network failure)", () => {
    expect(toApiError(req, 403, "Forbidden", "").code).toBe("ErrUnknownError");
    const net = toApiError(req, undefined, undefined, undefined);
    expect(net.code).toBe("ErrUnknownError");
    expect(net.message).toBe("Network Error");
    expect(toApiError(req, 502, "", null).message).toBe("Request failed with status code 502");
  });
});

describe("handler routing (spec §8)", () => {
  it("401 always starts the session-expired flow", () => {
    expect(routeError({ status: 401, code: "ErrInvalidCredentials" })).toEqual({ kind: "session" });
    expect(routeError({ status: 401, code: "ErrUnknownError" })).toEqual({ kind: "session" });
  });

  it("ErrGeneric with a msg shows the msg", () => {
    expect(routeError({ status: 500, code: "ErrGeneric", msg: "disk full" })).toEqual({
      kind: "generic",
      msg: "disk full",
    });
  });

  it("ErrUnknownError gets the generic message with details", () => {
    expect(routeError({ status: 500, code: "ErrUnknownError" })).toEqual({ kind: "unknown" });
  });

  it("any other code is translated with its metadata", () => {
    expect(routeError({ status: 429, code: "ErrTooManyAttempts", metadata: { retryAfter: 30 } })).toEqual({
      kind: "code",
      code: "ErrTooManyAttempts",
      metadata: { retryAfter: 30 },
    });
    expect(routeError({ status: 400, code: "ErrGeneric" })).toEqual({
      kind: "code",
      code: "ErrGeneric",
      metadata: {},
    });
  });
});

describe("request body in the details dialog", () => {
  it("masks password values in objects, nested objects and JSON text", () => {
    expect(maskSecrets({ email: "a@b.cd", password: "hunter2" })).toEqual({
      email: "a@b.cd",
      password: "********",
    });
    expect(maskSecrets({ user: { password: "x", newPassword: "y", name: "n" } })).toEqual({
      user: { password: "********", newPassword: "********", name: "n" },
    });
    expect(JSON.parse(maskSecrets('{"password":"p","keep":1}') as string)).toEqual({
      password: "********",
      keep: 1,
    });
  });

  it("masks form-encoded secrets and leaves other bodies alone", () => {
    expect(maskSecrets("grant_type=client_credentials&client_id=a&client_secret=s3cr3t")).toBe(
      "grant_type=client_credentials&client_id=a&client_secret=********",
    );
    expect(maskSecrets("say hello")).toBe("say hello");
    expect(maskSecrets(undefined)).toBeUndefined();
    expect(maskSecrets([{ password: "a" }])).toEqual([{ password: "********" }]);
  });

  it("fills ${name} placeholders of server messages", () => {
    expect(fillTemplate("${field} is required", { field: "email" })).toBe("email is required");
    expect(fillTemplate("${field} is required", undefined)).toBe("${field} is required");
  });
});
