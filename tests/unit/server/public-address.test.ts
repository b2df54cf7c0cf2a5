import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedGet, isPublicAddress, UnreachableAddress } from "../../../server/net/public-address.ts";

describe("public addresses", () => {
  it("refuses loopback, private, link-local, unique-local, CGNAT, multicast, unspecified and mapped forms", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2002:7f00:1::1",
      "not an address",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it("accepts public unicast addresses", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "2606:4700:4700::1111"])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it("refuses the host's own addresses, public ones too", () => {
    const own = Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect(isPublicAddress(address.replace(/%.*$/, "")), address).toBe(false);
  });
});

describe("checked GET", () => {
  /** A server on one loopback address that counts its requests and answers `handle`. */
  const serve = async (
    host: string,
    handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  ) => {
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      handle(req, res);
    });
    await new Promise<void>((r) => server.listen(0, host, r));
    return { server, hits, url: `http://${host}:${(server.address() as AddressInfo).port}` };
  };
  let inside: Awaited<ReturnType<typeof serve>>;
  let outside: Awaited<ReturnType<typeof serve>>;
  // In this test 127.0.0.2 plays a public host; every other address is refused.
  const allowed = (address: string) => address === "127.0.0.2";

  beforeAll(async () => {
    inside = await serve("127.0.0.1", (_req, res) => res.end("secret"));
    outside = await serve("127.0.0.2", (req, res) => {
      const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
      if (to) res.writeHead(302, { location: to }).end();
      else res.end("public file");
    });
  });
  afterAll(() => {
    inside.server.close();
    outside.server.close();
  });

  const via = (to: string) => `${outside.url}/?to=${encodeURIComponent(to)}`;
  const body = async (res: http.IncomingMessage) => {
    let text = "";
    for await (const chunk of res) text += chunk;
    return text;
  };

  it("follows a redirect to an allowed address", async () => {
    expect(await body(await checkedGet(via(`${outside.url}/file`), { allowed }))).toBe("public file");
  });

  it("refuses a redirect to a refused address, by literal or by name, without reaching it", async () => {
    const port = new URL(inside.url).port;
    for (const target of [`${inside.url}/x`, `http://localhost:${port}/x`, `http://[::1]:${port}/x`]) {
      await expect(checkedGet(via(target), { allowed })).rejects.toBeInstanceOf(UnreachableAddress);
    }
    await expect(checkedGet(`http://localhost:${port}/x`, { allowed })).rejects.toBeInstanceOf(
      UnreachableAddress,
    );
    expect(inside.hits).toEqual([]);
  });

  it("refuses every loopback address with the default check", async () => {
    const before = outside.hits.length;
    await expect(checkedGet(`${inside.url}/x`)).rejects.toBeInstanceOf(UnreachableAddress);
    await expect(checkedGet(via(`${inside.url}/x`))).rejects.toBeInstanceOf(UnreachableAddress);
    expect(inside.hits).toEqual([]);
    expect(outside.hits.length).toBe(before);
  });
});
