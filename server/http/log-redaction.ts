import type { FastifyRequest } from "fastify";

/**
 * No secret goes to a log at any level. Request logging (debug) writes each
 * request's address, and some addresses carry one in their query: the invite
 * link's token (/auth/invite?token=…, which the browser loads as a page), or
 * an OAuth secret or code from a client that puts it there. Values of query
 * parameters named like a secret are written as "[redacted]". Headers are not
 * logged (and the ones with credentials are redacted besides); bodies never.
 */
const secretName = /token|secret|pass|code|key|session|otp|auth|sig/i;

export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll("+", " "));
      } catch {
        // an undecodable name is judged as written
      }
      return secretName.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join("&")}`;
}

/** Fastify's request serializer (method, address, host, client), with the address redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
