import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh bearer/session token: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Tokens are stored only as their SHA-256; they are random, so no salt or slow hash is needed.
 * Every API call hashes its token: the one-shot `crypto.hash` (Node ≥ 20.12) spares the Hash
 * object createHash builds; the result is the same.
 */
export function tokenHash(token: string): string {
  return hash("sha256", token, "hex");
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
