import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { echoDefinition } from "../support/echo-template.ts";
import type { PanelClient } from "../support/http-client.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, usePanel } from "../support/test-panel.ts";

/** How an upgrade request ends: the socket opened, or the HTTP status it was answered with. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<number | "open"> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on("open", () => {
      socket.close();
      resolve("open");
    });
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      // The panel closes the connection after such an answer.
      response.socket.once("close", () => socket.terminate());
    });
    socket.on("error", reject);
  });
}

describe("WebSocket upgrades on the panel", () => {
  const panel = usePanel();
  const serverId = "50c0e7a1";
  let admin: PanelClient;
  const wsUrl = (path: string) => `${panel().url.replace(/^http/, "ws")}${path}`;
  const cookie = () => [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

  beforeAll(async () => {
    admin = await adminClient(panel());
    const created = await admin.put(`/api/servers/${serverId}`, {
      ...echoDefinition(),
      name: "Socket upgrades",
      node: 0,
      users: [],
    });
    expect(created.status, created.text).toBe(200);
  });

  it("opens a server's socket, and answers its address without an upgrade with 404", async () => {
    const socket = await openServerSocket(admin, serverId);
    socket.close();
    expect((await socket.closed).code).toBeGreaterThan(0);
    expect((await admin.get(`/api/servers/${serverId}/socket`)).status).toBe(404);
  });

  it("answers a refused upgrade over plain HTTP: 401 signed out, 404 for an unknown path or a route without a socket", async () => {
    expect(await upgrade(wsUrl(`/api/servers/${serverId}/socket`))).toBe(401);
    expect(await upgrade(wsUrl("/api/nothing/here"), { cookie: cookie() })).toBe(404);
    // An ordinary route answers as it would, and the connection is not upgraded.
    expect(await upgrade(wsUrl("/api/config"), { cookie: cookie() })).toBe(200);
    // The panel still serves sockets afterwards.
    const socket = await openServerSocket(admin, serverId);
    socket.close();
  });
});
