// What the error details dialog shows of a failed request's body (src/components/ErrorDetailsDialog.tsx):
// apart from errors.ts, so that the login page's first load (which builds errors) goes without it.

const MASK = "********";
const SECRET_KEY = /pass(word)?|secret|token/i;

/** A copy of a request body safe to show: password-like values replaced (objects, JSON, forms). */
export function maskSecrets(body: unknown): unknown {
  if (body == null) return body;
  if (typeof body === "string") {
    const s = body.trim();
    if (s.startsWith("{") || s.startsWith("[")) {
      try {
        return JSON.stringify(maskSecrets(JSON.parse(s)));
      } catch {
        return body;
      }
    }
    if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(s)) {
      const form = new URLSearchParams(s);
      for (const key of [...form.keys()]) if (SECRET_KEY.test(key)) form.set(key, MASK);
      return form.toString();
    }
    return body;
  }
  if (body instanceof URLSearchParams) return maskSecrets(body.toString());
  if (Array.isArray(body)) return body.map(maskSecrets);
  if (typeof body === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
      out[k] = SECRET_KEY.test(k) && v != null && typeof v !== "object" ? MASK : maskSecrets(v);
    }
    return out;
  }
  return body;
}
