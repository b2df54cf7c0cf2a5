/**
 * Fastify's `trustProxy` from OUTPOST_TRUST_PROXY. The client's address is then
 * the rightmost X-Forwarded-For hop that is not a trusted proxy, so a client
 * cannot pick its own address by sending the header itself (with `true` trusting
 * every hop, Fastify would take the leftmost one, which the client writes).
 *
 * - unset, "", "false": no proxy; the address is the connection's.
 * - "true": the proxies are on this host or a private network (loopback,
 *   link-local and private ranges).
 * - otherwise, a comma-separated list of the proxies' addresses or CIDR ranges
 *   (the names loopback, linklocal and uniquelocal may stand for those ranges).
 */
export function trustProxySetting(value: string | undefined): boolean | string {
  const text = (value ?? "").trim();
  if (text === "" || text === "false") return false;
  if (text === "true") return "loopback,linklocal,uniquelocal";
  return text;
}
