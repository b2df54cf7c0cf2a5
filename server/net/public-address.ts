import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net, { type LookupFunction } from "node:net";
import os from "node:os";
import { Readable } from "node:stream";

/**
 * Outbound requests a non-administrator chooses the address of (a template
 * repository's URL; later webhooks) reach public addresses only: never the
 * panel's host, its private networks or cloud metadata. The one module that
 * decides it.
 *
 * The address is checked where the connection is made: the lookup that gives
 * the socket its address refuses a name with any non-public address, so a
 * name that resolved to a public address when it was checked cannot point
 * the connection elsewhere afterwards (DNS rebinding). Every redirect is a
 * new request through the same check. A refusal looks exactly like a host
 * that cannot be reached: the caller learns nothing about what answers inside.
 */

/**
 * Ranges that are not public unicast (IANA special-purpose registries). IPv4-mapped IPv6 is checked
 * as IPv4. Made on the first check: adding an IPv6 range runs Node's IPv6 address pattern, whose
 * compiled form an idle panel would keep (0.1 MiB).
 */
function notPublicRanges(): net.BlockList {
  const notPublic = new net.BlockList();
  for (const [address, prefix] of [
    ["0.0.0.0", 8], // "this" network, unspecified
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local, cloud metadata
    ["172.16.0.0", 12], // private
    ["192.0.0.0", 24], // protocol assignments
    ["192.0.2.0", 24], // documentation
    ["192.88.99.0", 24], // 6to4 relay
    ["192.168.0.0", 16], // private
    ["198.18.0.0", 15], // benchmarking
    ["198.51.100.0", 24], // documentation
    ["203.0.113.0", 24], // documentation
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, broadcast
  ] as const)
    notPublic.addSubnet(address, prefix, "ipv4");
  for (const [address, prefix] of [
    ["::", 128], // unspecified
    ["::1", 128], // loopback
    ["64:ff9b::", 96], // NAT64: reaches IPv4 addresses through a translator
    ["64:ff9b:1::", 48], // local NAT64
    ["100::", 64], // discard
    ["2001::", 23], // protocol assignments (Teredo among them)
    ["2001:db8::", 32], // documentation
    ["2002::", 16], // 6to4: embeds an IPv4 address
    ["fc00::", 7], // unique local
    ["fe80::", 10], // link-local
    ["fec0::", 10], // site-local (deprecated)
    ["ff00::", 8], // multicast
  ] as const)
    notPublic.addSubnet(address, prefix, "ipv6");
  return notPublic;
}

/** The panel host's own addresses, public ones included (a request to itself reaches its services). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const { address } of list ?? []) own.add(address.replace(/%.*$/, "").toLowerCase());
  return own;
}

/** IPv6's global unicast space: nothing outside it is public, whatever the registries add later. */
function globalUnicastRange(): net.BlockList {
  const globalUnicast = new net.BlockList();
  globalUnicast.addSubnet("2000::", 3, "ipv6");
  return globalUnicast;
}

let ranges: { notPublic: net.BlockList; globalUnicast: net.BlockList } | undefined;
function addressRanges() {
  ranges ??= { notPublic: notPublicRanges(), globalUnicast: globalUnicastRange() };
  return ranges;
}

/** Whether an IP address is a public unicast address other than the panel host's own. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  const { notPublic, globalUnicast } = addressRanges();
  if (family === 6 && !globalUnicast.check(address, "ipv6")) return false;
  return (
    !notPublic.check(address, family === 4 ? "ipv4" : "ipv6") && !ownAddresses().has(address.toLowerCase())
  );
}

/** Refused: said the same way as an unreachable host. */
export class UnreachableAddress extends Error {
  constructor() {
    super("the address cannot be reached");
  }
}

export type AddressCheck = (address: string) => boolean;

/** A lookup for sockets (net, http, https) that answers only addresses `allowed` accepts. */
export function checkedLookup(allowed: AddressCheck = isPublicAddress): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, found) => {
      if (err) return callback(err, "", 0);
      if (found.length === 0 || found.some((a) => !allowed(a.address)))
        return callback(new UnreachableAddress(), "", 0);
      if (options.all)
        return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, found);
      callback(null, found[0].address, found[0].family);
    });
  };
}

/** A URL's host as an address or a name (IPv6 without its brackets). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Resolves a URL's host once and answers the address to connect to, refusing a
 * host with any address `allowed` does not accept (and one that does not
 * resolve, the same way). For a tool that connects by itself (git): pin its
 * connection to the answer.
 */
export async function checkedAddressOf(url: URL, allowed: AddressCheck = isPublicAddress): Promise<string> {
  const host = hostOf(url);
  if (net.isIP(host)) {
    if (!allowed(host)) throw new UnreachableAddress();
    return host;
  }
  const found = await dns.promises.lookup(host, { all: true }).catch(() => {
    throw new UnreachableAddress();
  });
  if (found.length === 0 || found.some((a) => !allowed(a.address))) throw new UnreachableAddress();
  return found[0].address;
}

const maxRedirects = 5;

/**
 * GET over http(s) to addresses `allowed` accepts only, following redirects
 * (each one checked again) up to maxRedirects. Answers the response of the
 * final request when it is a 2xx; anything else throws, without the status.
 */
export async function checkedGet(
  given: string,
  opts: {
    signal?: AbortSignal;
    allowed?: AddressCheck;
    headers?: Record<string, string>;
    /** Answer the final response whatever its status (a fetch's caller reads it). */
    anyStatus?: boolean;
  } = {},
): Promise<http.IncomingMessage> {
  const allowed = opts.allowed ?? isPublicAddress;
  const lookup = checkedLookup(allowed);
  let url = new URL(given);
  for (let hop = 0; hop <= maxRedirects; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnreachableAddress();
    // A literal address is not looked up: checked here instead.
    const host = hostOf(url);
    if (net.isIP(host) && !allowed(host)) throw new UnreachableAddress();
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const get = url.protocol === "https:" ? https.get : http.get;
      const req = get(url, { lookup, signal: opts.signal, agent: false, headers: opts.headers }, resolve);
      req.on("error", reject);
    });
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.resume();
      url = new URL(location, url);
      continue;
    }
    if (!opts.anyStatus && (status < 200 || status >= 300)) {
      res.resume();
      throw new Error("the server did not answer with the file");
    }
    return res;
  }
  throw new Error("too many redirects");
}

/**
 * `fetch` for GETs to public addresses only (checkedGet: every redirect
 * checked, the address pinned where the socket connects): for downloads a
 * non-administrator chooses the URL of, such as a task's. The answer's `url`
 * is empty: callers fall back to the URL they asked for.
 */
export async function checkedFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if ((init.method ?? "GET").toUpperCase() !== "GET") throw new TypeError("checkedFetch only sends GET");
  const res = await checkedGet(url, {
    signal: init.signal ?? undefined,
    headers: Object.fromEntries(new Headers(init.headers).entries()),
    anyStatus: true,
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  const status = res.statusCode ?? 502;
  const empty = status === 204 || status === 304 || (status >= 300 && status < 400);
  if (empty) res.resume();
  return new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
    status,
    statusText: res.statusMessage,
    headers,
  });
}

/**
 * POST over http(s) to addresses `allowed` accepts only (webhooks, Web Push),
 * redirects not followed. Answers the status code; a refused address throws
 * UnreachableAddress, like a host that does not answer.
 */
export async function checkedPost(
  given: string,
  body: Buffer,
  headers: Record<string, string>,
  opts: { signal?: AbortSignal; allowed?: AddressCheck } = {},
): Promise<number> {
  const allowed = opts.allowed ?? isPublicAddress;
  const url = new URL(given);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnreachableAddress();
  const host = hostOf(url);
  if (net.isIP(host) && !allowed(host)) throw new UnreachableAddress();
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      url,
      {
        method: "POST",
        lookup: checkedLookup(allowed),
        signal: opts.signal,
        agent: false,
        headers: { ...headers, "content-length": String(body.length) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
