import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServers } from "../../server/contract/node/server-wire.ts";
import { LiveStatus, type LiveWatcher } from "../../server/panel/live-status.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";

/**
 * Live status over both node kinds (issue 25): however many /api/live
 * sockets watch a server, the panel holds one node stream for it, so the
 * node samples it once per interval; status reaches every watcher on change.
 */
for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`live status: ${name}`, () => {
    let subject: NodeUnderTest;
    const id = "11fe0001";
    let streamsAsked = 0;
    let live: LiveStatus;

    beforeAll(async () => {
      subject = await make();
      await subject.client.servers.createServer(id, echoDefinition());
      const servers = subject.client.servers;
      // The node's own servers API, counting the streams asked of it.
      const counted: NodeServers = Object.create(servers);
      counted.subscribe = (...args) => {
        streamsAsked++;
        return servers.subscribe(...args);
      };
      live = new LiveStatus(async () => counted);
    });
    afterAll(async () => {
      await subject?.client.servers.action(id, "kill", false).catch(() => {});
      await subject?.close();
    });

    it("asks the node for one stream per server for a hundred watchers, fans out, and ends it with the last", async () => {
      const got: Record<string, unknown>[][] = [];
      const stops = Array.from({ length: 100 }, (_, i) => {
        const frames: Record<string, unknown>[] = [];
        got.push(frames);
        const watcher: LiveWatcher = {
          status: true,
          stats: i % 2 === 0,
          send: (bytes) => frames.push(JSON.parse(bytes.toString())),
        };
        return live.watch(id, watcher);
      });
      await waitUntil(async () => got.every((frames) => frames.length === 1), 10_000, 20);
      expect(got[99][0]).toEqual({ type: "status", id, running: false, installing: false, installed: true });

      await subject.client.servers.action(id, "start", true);
      await waitUntil(async () => got.every((frames) => frames.some((f) => f.running === true)), 10_000, 20);
      // Stats once per sample interval to those who may read them, and the same sample for all.
      await waitUntil(async () => got[0].some((f) => f.type === "stats"), 10_000, 50);
      const firstStats = got.map((frames) => frames.filter((f) => f.type === "stats"));
      expect(firstStats.filter((_, i) => i % 2 === 1).every((s) => s.length === 0)).toBe(true);
      expect(new Set(firstStats.filter((_, i) => i % 2 === 0).map((s) => JSON.stringify(s))).size).toBe(1);
      expect(streamsAsked).toBe(1);
      expect(live.streams).toBe(1);

      for (const stop of stops) stop();
      expect(live.streams).toBe(0);
      await subject.client.servers.action(id, "stop", true);
      expect(got[0].filter((f) => f.type === "status")).toHaveLength(2);
    });
  });
}
