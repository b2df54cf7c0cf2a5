import type { FastifyRequest } from "fastify";
import { decodeRequestPath, sandboxErrors } from "../sandbox/index.ts";

/**
 * The file path a request names after its route's prefix
 * (`/api/servers/:id/file/<path>`), decoded exactly once.
 *
 * The router has already decoded the wildcard param once; decoding that
 * again would turn a double-encoded `%252e%252e` into `..`. So the path is
 * taken from the raw URL instead and decoded here, once, by the sandbox's
 * own decodeRequestPath: `%2e%2e%2f` becomes `../` (which the sandbox then
 * refuses), `%252e` stays the literal text `%2e`. Leading slashes are left
 * to the sandbox, which reads them as the server's root.
 */
export function requestPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url ?? "";
  const raw = (request.raw.url ?? "").split("?")[0].split("#")[0];
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
    if (named.includes("\0")) throw sandboxErrors.illegal(named, "holds a NUL byte");
  }
}
