import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { echoDefinition } from "../support/echo-template.ts";
import type { PanelClient } from "../support/http-client.ts";
import { waitUntil } from "../support/poll.ts";
import { adminClient, usePanel } from "../support/test-panel.ts";

function consoleSocket(api: PanelClient, serverId: string): Promise<WebSocket> {
  const url = `${api.baseUrl.replace(/^http/, "ws")}/api/servers/${serverId}/socket`;
  const cookie = [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { cookie } });
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("a console watcher that stops reading (issue 13 #2)", () => {
  const panel = usePanel();
  let api: PanelClient;
  const serverId = "510e0001";

  beforeAll(async () => {
    api = await adminClient(panel());
    // A server that prints a steady flood: 64 KiB lines, ~100 a second at most. A reader keeps up
    // with that even on a busy machine; a watcher that stops reading falls MiBs behind in a second.
    const definition = echoDefinition({
      run: {
        command: `sh -c 'while :; do head -c 65536 /dev/zero | tr "\\0" x; echo; sleep 0.01; done'`,
        stopCode: 9,
      },
    });
    const created = await api.put(`/api/servers/${serverId}`, { ...definition, name: "flood", node: 0 });
    expect(created.status, created.text).toBe(200);
  });
  afterAll(async () => {
    await api?.post(`/api/servers/${serverId}/kill`);
  });

  it("is dropped at a bounded buffer, so the panel keeps only a few MiB for it, while a reading watcher gets everything", async () => {
    const stalled = await consoleSocket(api, serverId);
    // It stops reading: the TCP socket is paused, so what the panel sends piles up on its side.
    (stalled as unknown as { _socket: Socket })._socket.pause();
    const stalledClosed = new Promise<number>((r) => stalled.once("close", (code) => r(code)));

    const reader = await consoleSocket(api, serverId);
    let received = 0;
    reader.on("message", (data: Buffer) => {
      received += data.length;
    });

    const mebibytes = 1024 * 1024;
    expect((await api.post(`/api/servers/${serverId}/start`)).status).toBeLessThan(300);
    try {
      // Far more than the bound: an unbounded panel would hold all of it again for the stalled
      // socket (it grew by gigabytes in the audit). Seconds on an idle machine, longer on a busy one.
      await waitUntil(async () => received >= 64 * mebibytes, 110_000, 50);
    } finally {
      await api.post(`/api/servers/${serverId}/kill`);
    }
    expect(reader.readyState).toBe(WebSocket.OPEN);

    // What the panel kept for the stalled socket is what reaches it once it reads again, then its
    // close: told to reconnect (1013) or cut (1006). A few MiB, not the tens sent meanwhile.
    let backlog = 0;
    stalled.on("message", (data: Buffer) => {
      backlog += data.length;
    });
    (stalled as unknown as { _socket: Socket })._socket.resume();
    expect([1013, 1006]).toContain(await stalledClosed);
    expect(backlog).toBeLessThan(16 * mebibytes);
    reader.close();
  }, 120_000);
});
