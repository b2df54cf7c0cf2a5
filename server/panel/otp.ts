import { Secret, TOTP } from "otpauth";
import type { Accounts } from "./accounts.ts";

/** TOTP as authenticator apps expect it: SHA1, 6 digits, 30 s (reference §3.4). */
function totp(secret: string, label = "", issuer = "Outpost"): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

export function newOtpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpUri(secret: string, account: string, issuer: string): string {
  return totp(secret, account, issuer).toString();
}

/** The current code for a secret; for tests and enrolment checks. */
export function currentOtp(secret: string, timestamp = Date.now()): string {
  return totp(secret).generate({ timestamp });
}

/**
 * Accepts a code within one step of now, and only for a step later than the
 * last one accepted, so an observed code cannot be replayed.
 */
export async function checkOtp(accounts: Accounts, userId: number, code: string): Promise<boolean> {
  const state = await accounts.otpState(userId);
  if (!state.secret || !/^\d{6}$/.test(code)) return false;
  const delta = totp(state.secret).validate({ token: code, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(Date.now() / 30_000) + delta;
  if (step <= state.lastStep) return false;
  await accounts.setOtp(userId, { lastStep: step });
  return true;
}
