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
 * panel holds at most two connections to that node: its one stream (GET
 * /daemon/live, carrying the node's events and the live status of every
 * watched server) and one keep-alive HTTP connection its calls queue on; a
 * start reads no limits of its own. Counted as the kernel sees them: the
 * panel's established TCP connections to the node's port.
 */
describe("one live stream per node", () => {
  const setup = usePanelWithRemoteNode("stream-node");
  const connections = () => tcpConnectionsTo(setup().panel.pid, setup().daemon.config.listen.port);

  it(`watches ${serverCount} running servers of a remote node with at most 2 connections to it`, async () => {
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
      // Each start waits on the node on a connection of its own until the server is up: counted
      // once they are all up (the figure is for a node whose calls are done).
      for (const id of ids) {
        await waitUntil(
          async () => (await api.get(`/api/servers/${id}/status`)).body?.running === true,
          20_000,
          100,
        );
      }
      // Before any watch: the stream, open for the node's events (the activity log), and at most
      // the one HTTP connection the 20 creates and starts (and the health checks beside them) queued on.
      const before = connections();
      expect(before.length).toBeGreaterThan(0);
      expect(before.length).toBeLessThanOrEqual(2);

      const live = await openLive(api);
      live.watch(ids);
      const running = (id: string) => (f: LiveFrame) =>
        f.type === "status" && f.id === id && f.running === true;
      for (const id of ids) await live.next(running(id), 20_000);
      const stats = (id: string) => (f: LiveFrame) => f.type === "stats" && f.id === id;
      const firstStats = await Promise.all(ids.map((id) => live.next(stats(id), 20_000)));
      // The limits came with the status on the stream, not from a call of their own at the start.
      for (const frame of firstStats) expect(frame.limits).toEqual(expect.any(Object));

      // Over a few stats intervals, with calls going on beside (a status read of every server, side
      // by side, as a list page makes them): the connections, sample by sample.
      const samples: number[][] = [];
      const calls = Promise.all(ids.map((id) => api.get(`/api/servers/${id}/status`)));
      for (const end = Date.now() + 3000; Date.now() < end; ) {
        samples.push(connections());
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const answer of await calls) expect(answer.status, answer.text).toBe(200);
      // The stream and at most one HTTP connection at any time (a second stream for the events,
      // calls side by side each on a connection of their own, or a socket per server: 3 and more).
      expect(Math.max(...samples.map((held) => held.length))).toBeLessThanOrEqual(2);
      // And one connection held all along, from before the watch: the stream.
      const held = before.filter((port) => samples.every((sample) => sample.includes(port)));
      expect(held.length).toBeGreaterThanOrEqual(1);

      // No one watches any more: the stream stays, for the node's events.
      live.close();
      await new Promise((r) => setTimeout(r, 500));
      expect(connections().filter((port) => held.includes(port)).length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const id of ids) await api.post(`/api/servers/${id}/kill`);
    }
  }, 120_000);
});
