import type { FastifyRequest } from "fastify";
import { errors } from "../errors.ts";

/**
 * The file path a request names after its route's prefix
 * (`/api/servers/:id/file/<path>`), decoded exactly once.
 *
 * The router has already decoded the wildcard param once; decoding that
 * again would turn a double-encoded `%252e%252e` into `..`. So the path is
 * taken from the raw URL instead and decoded here, once, by decodeRequestPath.
 * Leading slashes are left to the sandbox, which reads them as the server's root.
 * Shared by the panel's file routes and the daemon's (neither owns the other).
 */
export function requestPath(request: FastifyRequest): string {
  return pathAfterRoute(request.routeOptions.url ?? "", request.raw.url ?? "");
}

/** The same from a route's pattern and the request's raw URL (the daemon's router has no FastifyRequest). */
export function pathAfterRoute(pattern: string, url: string): string {
  const raw = url.split("?")[0].split("#")[0];
  if (!pattern.endsWith("*")) return "";
  // The pattern's segments before the wildcard match the same number of raw segments.
  const prefixSegments = pattern.split("/").length - 1;
  return decodeRequestPath(raw.split("/").slice(prefixSegments).join("/"));
}

/**
 * Refuses a NUL byte in the request's file path or `destination` with
 * ErrIllegalFileAccess, as the sandbox would, before the panel's generic
 * NUL guard (which runs later, at validation) answers with a vaguer code.
 */
export function refuseNulPaths(request: FastifyRequest): void {
  const destination = (request.query as { destination?: unknown } | undefined)?.destination;
  for (const named of [requestPath(request), typeof destination === "string" ? destination : ""]) {
    if (named.includes("\0")) throw errors.illegalFileAccess(named, "holds a NUL byte");
  }
}

/**
 * A path taken from a request URL, decoded exactly once: `%2e%2e%2f` becomes
 * `../` here and is then refused by the sandbox like any other `../`, while a
 * double-encoded `%252e` stays the literal text `%2e` (a file name, not a
 * way out). Malformed escapes are refused.
 */
export function decodeRequestPath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.illegalFileAccess(raw, "is not a well-formed URL path");
  }
}
