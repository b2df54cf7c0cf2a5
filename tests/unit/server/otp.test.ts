import { describe, expect, it } from "vitest";
import {
  currentOtp,
  newOtpSecret,
  newRecoveryCodes,
  normaliseRecoveryCode,
  otpQrDataUrl,
  otpStep,
  otpUri,
} from "../../../server/panel/otp.ts";

const step = (ms: number) => Math.floor(ms / 30_000);

describe("TOTP codes", () => {
  it("makes base32 secrets of 160 bits and an otpauth URI for apps", () => {
    const secret = newOtpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = otpUri(secret, "a@b.cd", "Outpost");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Outpost:a%40b\.cd\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain("digits=6");
    expect(uri).toContain("period=30");
  });

  it("finds the step of the current code", () => {
    const secret = newOtpSecret();
    const now = Date.now();
    expect(otpStep(secret, currentOtp(secret, now), now)).toBe(step(now));
  });

  it("accepts a code one step off either way, but not two", () => {
    const secret = newOtpSecret();
    const now = Date.now();
    expect(otpStep(secret, currentOtp(secret, now - 30_000), now)).toBe(step(now) - 1);
    expect(otpStep(secret, currentOtp(secret, now + 30_000), now)).toBe(step(now) + 1);
    const old = currentOtp(secret, now - 90_000);
    // A code two steps away may by chance equal one in the window; only a real miss is undefined.
    if (![-1, 0, 1].some((d) => currentOtp(secret, now + d * 30_000) === old)) {
      expect(otpStep(secret, old, now)).toBeUndefined();
    }
  });

  it("refuses malformed codes", () => {
    const secret = newOtpSecret();
    const code = currentOtp(secret);
    for (const bad of ["", "12345", "1234567", `${code} `, "abcdef"]) {
      expect(otpStep(secret, bad), bad).toBeUndefined();
    }
  });

  it("draws the URI as an SVG QR code", () => {
    const url = otpQrDataUrl(otpUri(newOtpSecret(), "a@b.cd", "Outpost"));
    expect(url).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(url.split(",")[1], "base64").toString();
    expect(svg).toMatch(/^<svg[^>]*viewBox/);
  });
});

describe("recovery codes", () => {
  it("makes ten distinct codes of 12 characters without look-alikes", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{12}$/);
  });

  it("reads a typed code regardless of case, spaces and dashes", () => {
    expect(normaliseRecoveryCode("ABCD-efgh 2345")).toBe("abcdefgh2345");
    expect(normaliseRecoveryCode("abc")).toBeUndefined();
    expect(normaliseRecoveryCode("abcdefgh234!")).toBeUndefined();
  });
});
