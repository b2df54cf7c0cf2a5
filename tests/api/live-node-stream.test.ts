import { describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { type LiveFrame, openLive } from "../support/live-client.ts";
import { waitUntil } from "../support/poll.ts";
import { tcpConnectionsTo } from "../support/tcp-connections.ts";
import { usePanelWithRemoteNode } from "../support/test-panel.ts";

const serverCount = 20;
const ids = Array.from({ length: serverCount }, (_, i) => `5e0e${String(i).padStart(4, "0")}`);

/**
 * However many servers of a remote node are watched through /api/live, the
 * panel holds one live stream to that node (GET /daemon/live), not one
 * socket per server, and a start reads no limits of its own: counted as the
 * kernel sees them, the panel's TCP connections to the node's port.
 */
describe("one live stream per node", () => {
  const setup = usePanelWithRemoteNode("stream-node");
  const connections = () => tcpConnectionsTo(setup().panel.pid, setup().daemon.config.listen.port);

  it(`watches ${serverCount} running servers of a remote node on one stream, and closes it with the last`, async () => {
    const { api, nodeId } = setup();
    for (const id of ids) {
      const created = await api.put(`/api/servers/${id}`, {
        ...echoDefinition(),
        name: `stream ${id}`,
        node: nodeId,
        users: [],
      });
      expect(created.status, created.text).toBe(200);
      expect((await api.post(`/api/servers/${id}/start?wait=false`)).status).toBe(204);
    }
    try {
      // What the panel holds there before any watch: the node's event stream (for the activity
      // log) and its pool of keep-alive HTTP connections, which calls made meanwhile side by side
      // (a health check beside a start) may have grown to more than one.
      const before = new Set(connections());
      expect(before.size).toBeGreaterThan(0);

      const live = await openLive(api);
      live.watch(ids);
      const running = (id: string) => (f: LiveFrame) =>
        f.type === "status" && f.id === id && f.running === true;
      for (const id of ids) await live.next(running(id), 20_000);
      const stats = (id: string) => (f: LiveFrame) => f.type === "stats" && f.id === id;
      const firstStats = await Promise.all(ids.map((id) => live.next(stats(id), 20_000)));
      // The limits came with the status on the stream, not from a call of their own at the start.
      for (const frame of firstStats) expect(frame.limits).toEqual(expect.any(Object));

      // Over a few stats intervals: what the watch added, sample by sample.
      const samples: number[][] = [];
      for (const end = Date.now() + 3000; Date.now() < end; ) {
        samples.push(connections().filter((port) => !before.has(port)));
        await new Promise((r) => setTimeout(r, 100));
      }
      // At most the live stream and one keep-alive HTTP connection at any time (one socket per
      // server, and a limits call per start, would be 20 and more).
      expect(Math.max(...samples.map((added) => added.length))).toBeLessThanOrEqual(2);
      // And one connection held all along: the stream.
      const held = samples[0].filter((port) => samples.every((added) => added.includes(port)));
      expect(held).toHaveLength(1);

      // No one watches any more: the stream closes.
      live.close();
      await waitUntil(async () => !connections().includes(held[0]), 10_000, 100);
    } finally {
      for (const id of ids) await api.post(`/api/servers/${id}/kill`);
    }
  }, 120_000);
});
