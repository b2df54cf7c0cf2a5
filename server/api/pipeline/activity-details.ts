/**
 * The activity log keeps what a change was, never a secret: a field whose
 * name says it holds one (password, token, secret, key, OTP code, …) is
 * replaced by "[redacted]" whatever its value, at any depth. Long values are
 * cut short, so a big body cannot bloat the log.
 */
const secretName =
  /pass|secret|token|otp|code|key|auth|cookie|signature|credential|recovery|private|session/i;

export const redacted = "[redacted]";

export function isSecretName(name: string): boolean {
  return secretName.test(name);
}

const maxDepth = 3;
const maxKeys = 40;
const maxItems = 40;
const maxText = 500;

/** A copy of `details` without secrets, within the bounds above. */
export function withoutSecrets(details: Record<string, unknown>): Record<string, unknown> {
  return clean(details, 0) as Record<string, unknown>;
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.length > maxText ? `${value.slice(0, maxText)}…` : value;
  if (value === null || typeof value !== "object") return typeof value === "function" ? undefined : value;
  if (depth >= maxDepth) return "…";
  if (Array.isArray(value)) return value.slice(0, maxItems).map((item) => clean(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, maxKeys))
    out[key] = isSecretName(key) ? redacted : clean(item, depth + 1);
  return out;
}
