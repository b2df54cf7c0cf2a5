import { describe, expect, it } from "vitest";
import { ApiError } from "../../../server/errors.ts";
import {
  checkEmail,
  checkNewPassword,
  checkUsername,
  isEmailShaped,
  normaliseEmail,
} from "../../../server/panel/account-rules.ts";

/** The code and metadata of the ApiError a check throws. */
function refusal(check: () => unknown): { code: string; metadata?: unknown } {
  try {
    check();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(400);
    return { code: e.code, metadata: e.metadata };
  }
  throw new Error("the check accepted the value");
}

describe("e-mail (spec §5)", () => {
  it.each(["a@b.cd", "first.last+tag@sub.example.com", "x@example.museum"])("accepts %j", (email) => {
    expect(checkEmail(email)).toBe(email);
    expect(isEmailShaped(email)).toBe(true);
  });

  it("trims and lower-cases", () => {
    expect(normaliseEmail("  Someone@Example.COM ")).toBe("someone@example.com");
    expect(checkEmail(" Someone@Example.COM")).toBe("someone@example.com");
  });

  it.each(["plain", "a@b", "a@b.c", "@b.cd", "a@.cd", "a b@c.de", "a@b@c.de", "a@b.c d"])(
    "refuses %j with ErrFieldNotEmail",
    (email) => {
      expect(refusal(() => checkEmail(email))).toEqual({
        code: "ErrFieldNotEmail",
        metadata: { field: "email" },
      });
      expect(isEmailShaped(email)).toBe(false);
    },
  );

  it("refuses an empty e-mail as required, and one over 255 characters", () => {
    expect(refusal(() => checkEmail("   ")).code).toBe("ErrFieldRequired");
    expect(checkEmail(`${"a".repeat(250)}@b.cd`)).toHaveLength(255);
    expect(refusal(() => checkEmail(`${"a".repeat(251)}@b.cd`)).code).toBe("ErrFieldNotEmail");
  });

  it("names the field it was given", () => {
    expect(refusal(() => checkEmail("x", "newEmail")).metadata).toEqual({ field: "newEmail" });
  });
});

describe("username (spec §5)", () => {
  it("needs 5 to 100 characters, after trimming", () => {
    expect(checkUsername("abcde")).toBe("abcde");
    expect(checkUsername(" abcde ")).toBe("abcde");
    expect(checkUsername("a".repeat(100))).toHaveLength(100);
    expect(refusal(() => checkUsername("abcd"))).toEqual({
      code: "ErrFieldLength",
      metadata: { field: "username", min: 5, max: 100 },
    });
    expect(refusal(() => checkUsername("  abcd  ")).code).toBe("ErrFieldLength");
    expect(refusal(() => checkUsername("a".repeat(101))).code).toBe("ErrFieldLength");
    expect(refusal(() => checkUsername("")).code).toBe("ErrFieldRequired");
  });

  it.each(["with space", "slash/name", "quest?ion", "hash#name", "percent%20"])(
    "refuses %j, which would need escaping in a URL",
    (name) => {
      expect(refusal(() => checkUsername(name)).code).toBe("ErrFieldHasURICharacters");
    },
  );

  it("accepts letters, digits and . _ ~ -", () => {
    expect(checkUsername("A.b_c~d-9")).toBe("A.b_c~d-9");
  });
});

describe("new password", () => {
  it("needs at least 8 characters and at most 1024", () => {
    expect(checkNewPassword("12345678")).toBe("12345678");
    expect(refusal(() => checkNewPassword("1234567"))).toEqual({
      code: "ErrPasswordRequirements",
      metadata: { min: 8 },
    });
    expect(refusal(() => checkNewPassword("")).code).toBe("ErrFieldRequired");
    expect(refusal(() => checkNewPassword("x".repeat(1025))).code).toBe("ErrFieldLength");
  });

  it("keeps spaces: a password is not trimmed", () => {
    expect(checkNewPassword("  spaced  ")).toBe("  spaced  ");
  });
});
