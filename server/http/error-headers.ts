import type { ApiError } from "../errors.ts";

/** The headers an error answer carries beside its envelope (the panel's and the daemon's). */
export function errorHeaders(error: ApiError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="outpost"';
  // A client that waits as told need not read the envelope to know how long.
  const retryAfter = error.metadata?.retryAfter;
  if (error.status === 429 && typeof retryAfter === "number") headers["Retry-After"] = String(retryAfter);
  return headers;
}
