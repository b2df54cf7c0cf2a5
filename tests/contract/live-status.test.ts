import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeLive } from "../../server/contract/node/live-wire.ts";
import type { NodeLiveStream } from "../../server/link/node-live-stream.ts";
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
      const node = subject.client.live;
      // The node's own live stream, counting the watches asked of it.
      const counted: NodeLive = {
        watch: (...args) => {
          streamsAsked++;
          return node.watch(...args);
        },
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

    it("streams several servers of one node together, the limits with each status, and closes with the last", async () => {
      const others = ["11fe0002", "11fe0003", "11fe0004"];
      for (const other of others) await subject.client.servers.createServer(other, echoDefinition());
      const remote = name === "RemoteNode" ? (subject.client.live as NodeLiveStream) : undefined;
      const openedBefore = remote?.opened ?? 0;
      const heard = new Map<string, unknown[]>();
      const stops = [id, ...others].map((server) => {
        const frames: unknown[] = [];
        heard.set(server, frames);
        return subject.client.live.watch(server, {
          status: (status, limits) => frames.push({ status, limits }),
          stats: (stats) => frames.push({ stats }),
          gone: () => frames.push("gone"),
          unreachable: () => frames.push("unreachable"),
        });
      });
      const gone: unknown[] = [];
      const stopGone = subject.client.live.watch("ffffffff", {
        status: () => gone.push("status"),
        stats: () => gone.push("stats"),
        gone: () => gone.push("gone"),
        unreachable: () => gone.push("unreachable"),
      });
      await waitUntil(
        async () => [...heard.values()].every((f) => f.length > 0) && gone.length > 0,
        10_000,
        20,
      );
      expect(gone).toEqual(["gone"]);
      // The limits GET …/stats gives, without asking for them.
      const { limits } = await subject.client.servers.stats(id);
      for (const frames of heard.values())
        expect(frames[0]).toEqual({ status: { running: false, installing: false, installed: true }, limits });
      // Four servers and one unknown id: one connection to the node.
      if (remote) expect(remote.opened - openedBefore).toBe(1);
      for (const stop of stops) stop();
      stopGone();
      if (remote) expect(remote.active).toBe(false);
    });

    it("follows a watched server that moved: deleted on its node, it is looked for on the one it is on now", async () => {
      const moving = "11fe0005";
      await subject.client.servers.createServer(moving, echoDefinition());
      // The node it moves to: an in-process one, where it runs.
      const other = await nodeImplementations.LocalNode();
      try {
        await other.client.servers.createServer(moving, echoDefinition());
        await other.client.servers.action(moving, "start", true);
        let home = subject.client.live;
        const following = new LiveStatus(async () => home);
        const frames: Record<string, unknown>[] = [];
        const stop = following.watch(moving, {
          status: true,
          stats: false,
          send: (bytes) => frames.push(JSON.parse(bytes.toString())),
        });
        await waitUntil(async () => frames.length === 1, 10_000, 20);
        expect(frames[0]).toMatchObject({ id: moving, running: false });
        home = other.client.live;
        await subject.client.servers.deleteServer(moving);
        await waitUntil(async () => frames.length === 2, 10_000, 20);
        expect(frames[1]).toMatchObject({ id: moving, running: true });
        stop();
      } finally {
        await other.client.servers.action(moving, "kill", false).catch(() => {});
        await other.close();
      }
    });
  });
}
