import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { echoDefinition } from "../support/echo-template.ts";
import { sessionHeaders } from "../support/file-requests.ts";
import { waitUntil } from "../support/poll.ts";
import { consoleText } from "../support/server-console.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

const MiB = 1024 * 1024;
/** What the game prints: far more than the bound, in lines of 4 KiB. */
const printedMiB = 48;

/**
 * Issue 35: one console socket that stopped reading grew the panel by ~130 MiB before it was cut.
 * Here a watcher stops reading while its server prints 48 MiB; when it reads again, what the panel
 * had queued for it (its own buffer and the kernel's on both ends) is at most 16 MiB, and the
 * socket has been cut as too slow. Unbounded, the panel would have kept all 48 MiB for it.
 */
describe("a stalled console reader", () => {
  const panel = usePanel();
  const id = "57a11ed1";
  let api: PanelClient;

  beforeAll(async () => {
    api = await adminClient(panel());
    const script = `i=0; line=$(head -c 4095 /dev/zero | tr "\\\\0" x); while [ $i -lt ${(printedMiB * MiB) / 4096} ]; do echo "$line"; i=$((i+1)); done; echo PRINTED-ALL`;
    const definition = echoDefinition({ run: { command: `sh -c '${script}'`, stop: "stop" } });
    expect((await api.put(`/api/servers/${id}`, definition)).status).toBe(200);
  });
  afterAll(async () => {
    await api?.delete(`/api/servers/${id}`);
  });

  it("costs at most 16 MiB before it is cut", async () => {
    const url = `${api.baseUrl.replace(/^http/, "ws")}/api/servers/${id}/socket`;
    const watcher = new WebSocket(url, { headers: sessionHeaders(api, "GET") });
    await new Promise((resolve, reject) => {
      watcher.once("open", resolve);
      watcher.once("error", reject);
    });
    let received = 0;
    let overBound: () => void = () => {};
    const over = new Promise<"over">((resolve) => {
      overBound = () => resolve("over");
    });
    watcher.on("message", (data: Buffer) => {
      received += data.length;
      if (received > 16 * MiB) overBound();
    });
    const closed = new Promise<number>((resolve) => watcher.on("close", (code) => resolve(code)));
    watcher.on("error", () => {});
    // Stops reading: what the panel sends waits in its buffers and the kernel's.
    const tcp = (watcher as unknown as { _socket: net.Socket })._socket;
    tcp.pause();

    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("PRINTED-ALL"), 120_000, 250);
    tcp.resume();
    const code = await Promise.race([closed, over]);
    expect(received).toBeLessThanOrEqual(16 * MiB);
    // Cut as too slow (1013), or ended without a close frame when the close could not be read.
    expect([1013, 1006]).toContain(code);
    watcher.terminate();
  }, 180_000);
});
