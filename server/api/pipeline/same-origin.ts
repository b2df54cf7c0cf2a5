import type { FastifyRequest } from "fastify";

/**
 * Whether an Origin header names this panel: its host is the one the request
 * was addressed to (the Host header, or the forwarded host behind a trusted
 * proxy). "null" and anything unparsable are foreign.
 */
export function isSameOrigin(origin: string, request: FastifyRequest): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host !== "" && (host === request.headers.host || host === request.host);
}
