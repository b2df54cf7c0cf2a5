import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import type { PanelClient } from "../support/http-client.ts";
import { waitUntil } from "../support/poll.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, usePanel } from "../support/test-panel.ts";

const lines = 2000;

// Issue 13 #2: console output goes to watchers gathered by short windows (ConsoleBatcher); nothing is
// lost or reordered by it, and output printed before the server stopped comes before its status.
describe("console output over the socket", () => {
  const panel = usePanel();
  let api: PanelClient;
  const serverId = "ba7c0001";

  beforeAll(async () => {
    api = await adminClient(panel());
    // One write per line (sh's echo), a pause between each hundred, then the last words and exit.
    const command = `sh -c 'i=0; while [ $i -lt ${lines} ]; do echo "line $i"; i=$((i+1)); [ $((i % 100)) = 0 ] && sleep 0.05; done; echo last words'`;
    const created = await api.put(`/api/servers/${serverId}`, {
      ...echoDefinition({ run: { command, stopCode: 9 } }),
      name: "batching",
      node: 0,
    });
    expect(created.status, created.text).toBe(200);
  });
  afterAll(async () => {
    await api?.post(`/api/servers/${serverId}/kill`);
  });

  it("arrives whole, in order, in fewer frames than lines, and before the stopped status", async () => {
    const socket = await openServerSocket(api, serverId);
    expect((await api.post(`/api/servers/${serverId}/start`)).status).toBeLessThan(300);
    // The first status frame is the one the socket opens with (stopped): the one that counts follows a running one.
    const stopped = () => {
      const running = socket.frames.findIndex((f) => f.type === "status" && f.data.running === true);
      if (running < 0) return -1;
      const after = socket.frames.slice(running).findIndex((f) => f.type === "status" && !f.data.running);
      return after < 0 ? -1 : running + after;
    };
    await waitUntil(async () => stopped() >= 0, 30_000, 50);
    const expected = Array.from({ length: lines }, (_, i) => `line ${i}\n`).join("");
    expect(socket.consoleText()).toContain(`${expected}last words\n`);
    const before = socket.frames.slice(0, stopped());
    const textBefore = before
      .filter((f) => f.type === "console")
      .map((f) => Buffer.from(f.data.logs, "base64").toString())
      .join("");
    expect(textBefore).toContain("last words\n");
    expect(before.filter((f) => f.type === "console").length).toBeLessThan(lines);
    socket.close();
  });
});
