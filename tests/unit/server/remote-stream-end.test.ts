import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { tooSlowClose } from "../../../server/http/socket-send.ts";
import { NodeHttp } from "../../../server/link/node-http.ts";
import { RemoteServers } from "../../../server/link/remote-servers.ts";

/**
 * A remote node's console stream that the node ends: the panel learns how it
 * ended, so a stream cut off as too slow (1013) reaches the browser as 1013 and
 * the browser resyncs and marks the gap, as when the panel cuts it off itself.
 * The node here is a plain WebSocket server that closes each stream with the
 * code the test names in the server id.
 */
describe("RemoteServers.subscribe: how the node ended the stream", () => {
  let server: http.Server;
  let servers: RemoteServers;

  beforeAll(async () => {
    server = http.createServer();
    const sockets = new WebSocketServer({ server });
    sockets.on("connection", (socket, request) => {
      const code = Number(/\/daemon\/server\/(\d+)\/socket/.exec(request.url ?? "")?.[1]);
      // At once: the client has its "open" before it reads the close that follows.
      socket.close(code, "ended by the node");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    servers = new RemoteServers(
      new NodeHttp({
        nodeId: 1,
        secret: "a-node-secret-of-enough-length",
        baseUrl: `http://127.0.0.1:${port}`,
      }),
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const endCode = (closeWith: number) =>
    new Promise<number | undefined>((resolve, reject) => {
      servers.subscribe(String(closeWith), ["console"], () => {}, resolve).catch(reject);
    });

  it("passes on a too-slow close", async () => {
    expect(await endCode(tooSlowClose.code)).toBe(1013);
  });

  it("passes on an ordinary close", async () => {
    expect(await endCode(1000)).toBe(1000);
  });
});
