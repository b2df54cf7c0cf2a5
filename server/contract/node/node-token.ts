import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Short-lived tokens the panel signs for one node: a compact JWT (HS256)
 * keyed with that node's secret, audience `node:<id>`, valid for a minute.
 * Unlike the reference panel's never-expiring tokens, a leaked token is
 * useless after its minute and on every other node.
 */
export const nodeTokenLifetimeSeconds = 60;
const clockSkewSeconds = 30;

const b64 = (data: Buffer | string) => Buffer.from(data).toString("base64url");
const header = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));

function sign(input: string, secret: string): string {
  return createHmac("sha256", secret).update(input).digest("base64url");
}

export function nodeAudience(nodeId: number): string {
  return `node:${nodeId}`;
}

export function signNodeToken(nodeId: number, secret: string, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const payload = b64(
    JSON.stringify({
      aud: nodeAudience(nodeId),
      iat,
      exp: iat + nodeTokenLifetimeSeconds,
      jti: randomBytes(9).toString("base64url"),
    }),
  );
  return `${header}.${payload}.${sign(`${header}.${payload}`, secret)}`;
}

export type TokenProblem = "malformed" | "signature" | "audience" | "expired";

/** Checks a token for this node; answers what is wrong with it, or undefined when it is good. */
export function verifyNodeToken(
  token: string,
  nodeId: number,
  secret: string,
  now = Date.now(),
): TokenProblem | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== header) return "malformed";
  const expected = Buffer.from(sign(`${parts[0]}.${parts[1]}`, secret));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "signature";
  let claims: { aud?: unknown; iat?: unknown; exp?: unknown };
  try {
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString());
  } catch {
    return "malformed";
  }
  if (claims.aud !== nodeAudience(nodeId)) return "audience";
  const seconds = now / 1000;
  if (typeof claims.exp !== "number" || typeof claims.iat !== "number") return "malformed";
  if (claims.exp < seconds - clockSkewSeconds || claims.iat > seconds + clockSkewSeconds) return "expired";
  if (claims.exp - claims.iat > nodeTokenLifetimeSeconds) return "expired";
  return undefined;
}
