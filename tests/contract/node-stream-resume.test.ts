import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeEvent } from "../../server/contract/node/node-events.ts";
import { RemoteNode } from "../../server/link/remote-node.ts";
import { type DaemonProcess, startDaemon } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { freePort } from "../support/free-port.ts";
import { waitUntil } from "../support/poll.ts";
import { tcpConnectionsTo } from "../support/tcp-connections.ts";
import { startRelay, type TcpRelay } from "../support/tcp-relay.ts";

/**
 * The node's events ride on the panel's one live stream to the node: when
 * the stream drops and comes back, the events sent meanwhile come once, and
 * none heard before comes again, while the live status goes on on the same
 * socket.
 */
describe("RemoteNode: events on the live stream across a drop", () => {
  const id = "e7e70002";
  let daemon: DaemonProcess;
  let relay: TcpRelay;
  let direct: RemoteNode;
  let relayed: RemoteNode;

  beforeAll(async () => {
    const secret = randomBytes(32).toString("hex");
    daemon = await startDaemon({
      nodeId: 7,
      secret,
      panelUrl: "http://127.0.0.1:1",
      listen: { host: "127.0.0.1", port: await freePort() },
      sftp: { host: "127.0.0.1", port: await freePort() },
      dataDir: "unused",
    });
    relay = await startRelay(daemon.config.listen.port);
    direct = new RemoteNode({ nodeId: 7, secret, baseUrl: daemon.baseUrl });
    relayed = new RemoteNode({ nodeId: 7, secret, baseUrl: `http://127.0.0.1:${relay.port}` });
    await direct.servers.createServer(id, echoDefinition());
  });
  afterAll(async () => {
    await relay?.close();
    await daemon?.destroy();
  });

  const runTask = async (name: string) => {
    const task = await direct.tasks.create(id, { name, operations: [] });
    await direct.tasks.run(id, task.id);
    return task.id;
  };
  const told = (heard: NodeEvent[], taskId: string) =>
    heard.filter((e) => e.data.subject === `task:${taskId}`).length;

  it("tells each event once across a reconnection, on the one socket the live status uses", async () => {
    const heard: NodeEvent[] = [];
    const stop = await relayed.events.subscribe(
      undefined,
      (e) => heard.push(e),
      () => {},
    );
    const statuses: boolean[] = [];
    const unwatch = relayed.live.watch(id, {
      status: (status) => statuses.push(status.running),
      stats: () => {},
      gone: () => {},
      unreachable: () => {},
    });
    try {
      const first = await runTask("before");
      await waitUntil(async () => told(heard, first) === 1, 10_000, 20);
      await waitUntil(async () => statuses.length > 0, 10_000, 20);
      // Events and live status on one connection (the events' socket is the live stream's).
      expect(tcpConnectionsTo(process.pid, relay.port)).toHaveLength(1);
      expect(relayed.live.opened).toBe(1);

      relay.cut();
      const missed = await runTask("while away");
      await waitUntil(
        async () => (await direct.tasks.runs(id, missed)).some((r) => r.finished !== null),
        10_000,
        20,
      );
      relay.restore();
      await waitUntil(async () => told(heard, missed) === 1, 15_000, 50);
      const after = await runTask("after");
      await waitUntil(async () => told(heard, after) === 1, 10_000, 20);
      // Each event once: the one before the drop not replayed, the one missed not lost.
      expect([told(heard, first), told(heard, missed), told(heard, after)]).toEqual([1, 1, 1]);
      expect(new Set(heard.map((e) => e.id)).size).toBe(heard.length);
      expect(relayed.live.opened).toBeGreaterThan(1);
    } finally {
      unwatch();
      stop();
    }
    // With neither a watcher nor an events listener, the stream closes.
    await waitUntil(async () => !relayed.live.active, 5000, 20);
  }, 60_000);
});
