import { randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";

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

/**
 * The otpauth URI as a QR code, an SVG data URL drawn here: the secret never
 * goes to a third-party image service. (The reference answers a PNG; an
 * <img> shows either.)
 */
export function otpQrDataUrl(uri: string): string {
  const svg = renderSVG(uri, { ecc: "M", border: 2, pixelSize: 8 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/** The current code for a secret; for tests and enrolment checks. */
export function currentOtp(secret: string, timestamp = Date.now()): string {
  return totp(secret).generate({ timestamp });
}

export const otpCodePattern = /^\d{6}$/;

/**
 * The time step a code belongs to, when it is a code of this secret within one
 * step of now; undefined otherwise. Whether that step was used already is the
 * caller's question (Accounts.claimOtpStep).
 */
export function otpStep(secret: string, code: string, now = Date.now()): number | undefined {
  if (!otpCodePattern.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, window: 1, timestamp: now });
  if (delta === null) return undefined;
  return Math.floor(now / 30_000) + delta;
}

/**
 * Recovery codes: 12 characters from an alphabet without look-alikes (no 0/o,
 * 1/l/i), about 59 bits each; case and separators are ignored when one is typed.
 */
const recoveryAlphabet = "23456789abcdefghjkmnpqrstuvwxyz";
export const recoveryCodeCount = 10;
export const recoveryCodeLength = 12;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () =>
    Array.from(
      { length: recoveryCodeLength },
      () => recoveryAlphabet[randomInt(recoveryAlphabet.length)],
    ).join(""),
  );
}

/** A typed recovery code in its stored form, or undefined when it cannot be one. */
export function normaliseRecoveryCode(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, "").toLowerCase();
  return code.length === recoveryCodeLength && /^[0-9a-z]+$/.test(code) ? code : undefined;
}
