import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RemoteNode } from "../../server/link/remote-node.ts";

/**
 * A remote node's ordinary calls share one keep-alive connection, one after another. A health
 * check must not wait behind a slow one (a big folder's listing): queued there past its 2 s, it
 * had the node taken for down, and every call after it refused as unreachable.
 */
describe("a node's health check beside a slow call", () => {
  let server: http.Server;
  let node: RemoteNode;
  let release: () => void = () => {};

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ os: "linux" }));
      };
      // The slow call answers when the test says so; the health check at once.
      if (req.url?.startsWith("/daemon/server/slow")) release = answer;
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    node = new RemoteNode({ nodeId: 4, secret: "s".repeat(32), baseUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers while the slow call holds the shared connection, and the node stays up", async () => {
    const slow = node.servers.flags("slow").catch(() => undefined);
    // The slow call has reached the node and holds the connection.
    await new Promise<void>((resolve) => {
      const wait = () => (release.name === "answer" ? resolve() : setTimeout(wait, 10));
      wait();
    });
    await expect(node.health()).resolves.toBeUndefined();
    release();
    await slow;
  });
});
