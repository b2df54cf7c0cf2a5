import { describe, expect, it } from "vitest";
import type { Accounts } from "../../../server/panel/accounts.ts";
import { checkOtp, currentOtp, newOtpSecret, otpUri } from "../../../server/panel/otp.ts";

/** The two methods checkOtp uses, over one in-memory user. */
function store(secret: string | null) {
  const state = { secret, active: true, lastStep: 0 };
  const accounts = {
    otpState: async () => ({ ...state }),
    setOtp: async (_id: number, next: { lastStep?: number }) => {
      if (next.lastStep !== undefined) state.lastStep = next.lastStep;
    },
  } as unknown as Accounts;
  return { accounts, state };
}

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

  it("accepts the current code once and then refuses it", async () => {
    const { accounts, state } = store(newOtpSecret());
    const code = currentOtp(state.secret!);
    expect(await checkOtp(accounts, 1, code)).toBe(true);
    expect(state.lastStep).toBeGreaterThanOrEqual(step(Date.now()) - 1);
    expect(await checkOtp(accounts, 1, code)).toBe(false);
  });

  it("accepts a code one step off either way, but not two", async () => {
    const secret = newOtpSecret();
    const now = Date.now();
    expect(await checkOtp(store(secret).accounts, 1, currentOtp(secret, now - 30_000))).toBe(true);
    expect(await checkOtp(store(secret).accounts, 1, currentOtp(secret, now + 30_000))).toBe(true);
    expect(await checkOtp(store(secret).accounts, 1, currentOtp(secret, now - 90_000))).toBe(false);
  });

  it("refuses an older code once a later one was used", async () => {
    const secret = newOtpSecret();
    const { accounts } = store(secret);
    const now = Date.now();
    expect(await checkOtp(accounts, 1, currentOtp(secret, now + 30_000))).toBe(true);
    expect(await checkOtp(accounts, 1, currentOtp(secret, now))).toBe(false);
  });

  it("refuses malformed codes and users without a secret", async () => {
    const secret = newOtpSecret();
    const code = currentOtp(secret);
    for (const bad of ["", "12345", "1234567", `${code} `, "abcdef"]) {
      expect(await checkOtp(store(secret).accounts, 1, bad), bad).toBe(false);
    }
    expect(await checkOtp(store(null).accounts, 1, code)).toBe(false);
  });
});
