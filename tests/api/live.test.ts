import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import type { PanelClient } from "../support/http-client.ts";
import { type LiveFrame, openLive } from "../support/live-client.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient, registeredClient, usePanel } from "../support/test-panel.ts";

const isStatus = (id: string, running: boolean) => (f: LiveFrame) =>
  f.type === "status" && f.id === id && f.running === running;

/** GET /api/live (issue 25): status and stats of many servers on one socket. */
describe("the live status socket", () => {
  const panel = usePanel();
  let admin: PanelClient;
  let friend: PanelClient;
  let daemon: DaemonProcess;
  const local = "11ee0001";
  const remote = "11ee0002";
  const hidden = "11ee0003";
  const statusOnly = "11ee0004";

  const create = async (id: string, node: number) => {
    const res = await admin.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      name: `live ${id}`,
      node,
      users: [],
    });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    admin = await adminClient(panel());
    friend = await registeredClient(panel(), {
      username: "livefriend",
      email: "live@example.com",
      password: "live-friend-1",
    });
    const { nodeId, daemon: started } = await addRemoteNode(admin, "live-remote");
    daemon = started;
    await create(local, 0);
    await create(remote, nodeId);
    await create(hidden, 0);
    await create(statusOnly, 0);
    const user = (id: string) => `/api/servers/${id}/user/${encodeURIComponent("live@example.com")}`;
    expect((await admin.put(user(local), { scopes: ["server.status", "server.stats"] })).status).toBe(204);
    expect((await admin.put(user(statusOnly), { scopes: ["server.status"] })).status).toBe(204);
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  it("refuses a caller who is not signed in with a plain 401, and a page of another site", async () => {
    const anonymous = new WebSocket(`${panel().url.replace(/^http/, "ws")}/api/live`);
    const status = await new Promise<number>((resolve, reject) => {
      anonymous.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      anonymous.on("open", () => reject(new Error("opened without a session")));
      anonymous.on("error", reject);
    });
    expect(status).toBe(401);
    anonymous.terminate();

    const foreign = await openLive(admin, { origin: "https://evil.example" });
    expect((await foreign.closed).code).toBe(1008);
    const own = await openLive(admin, { origin: panel().url });
    own.watch([local]);
    await own.next((f) => f.type === "status" && f.id === local);
    own.close();
  });

  it("answers each visible server's status at once, and leaves out what the caller may not see", async () => {
    const live = await openLive(friend);
    live.watch([local, hidden, statusOnly, "ffffffff", remote]);
    const first = await live.next((f) => f.id === local);
    expect(first).toEqual({ type: "status", id: local, running: false, installing: false, installed: true });
    await live.next((f) => f.id === statusOnly);
    // Another watch is answered after this one's: by then anything about the others would have come.
    live.watch([local]);
    await live.next((f) => f.id === local, 10_000, live.frames.indexOf(first) + 1);
    expect(live.frames.map((f) => f.id).sort()).toEqual([local, local, statusOnly]);
    live.close();
  });

  it("answers a frame it does not understand in the API's error envelope and stays open", async () => {
    const live = await openLive(friend);
    live.sendRaw("not json");
    expect(await live.next((f) => f.type === "error")).toEqual({
      type: "error",
      error: { code: "ErrBadRequest", msg: "a frame must be JSON" },
    });
    live.watch(Array.from({ length: 201 }, (_, i) => `s${i}`));
    const tooMany = await live.next((f) => f.type === "error", 10_000, 1);
    expect(tooMany.error).toMatchObject({ code: "ErrBadRequest", metadata: { max: 200 } });
    live.watch([local]);
    await live.next((f) => f.type === "status");
    live.close();
  });

  for (const [where, id] of [
    ["the local node", local],
    ["a remote node", remote],
  ] as const)
    it(`pushes a status change on ${where}, and stats while it runs, to every watcher`, async () => {
      // The friend is on the local server only.
      const viewers = id === local ? [admin, admin, friend] : [admin, admin, admin];
      const watchers = await Promise.all(viewers.map((viewer) => openLive(viewer)));
      for (const live of watchers) {
        live.watch([id]);
        await live.next(isStatus(id, false));
      }
      expect((await admin.post(`/api/servers/${id}/start?wait=false`)).status).toBe(204);
      for (const live of watchers) await live.next(isStatus(id, true));
      const stats = await Promise.all(
        watchers.map((live) => live.next((f) => f.type === "stats" && f.id === id)),
      );
      for (const frame of stats) {
        // The limits it runs under ride along, read from the node once per start.
        expect(frame).toEqual({
          type: "stats",
          id,
          cpu: expect.any(Number),
          memory: expect.any(Number),
          limits: expect.any(Object),
        });
        expect(frame.memory).toBeGreaterThan(0);
      }
      // One sample on the node, fanned out: every watcher got the very same figures.
      expect(new Set(stats.map((f) => JSON.stringify(f))).size).toBe(1);
      expect((await admin.post(`/api/servers/${id}/stop?wait=true`)).status).toBe(204);
      for (const live of watchers)
        await live.next(isStatus(id, false), 10_000, live.frames.findIndex(isStatus(id, true)));
      // A status frame only on a change: one for stopped, one for running, one for stopped again.
      for (const live of watchers) expect(live.frames.filter((f) => f.type === "status")).toHaveLength(3);
      for (const live of watchers) live.close();
    });

  it("closes a watcher's socket when their rights on a server change, so it is opened again with the new ones", async () => {
    const live = await openLive(friend);
    live.watch([statusOnly]);
    await live.next((f) => f.id === statusOnly);
    const user = `/api/servers/${statusOnly}/user/${encodeURIComponent("live@example.com")}`;
    expect((await admin.delete(user)).status).toBe(204);
    expect((await live.closed).code).toBe(4001);
    const again = await openLive(friend);
    again.watch([statusOnly, local]);
    await again.next((f) => f.id === local);
    expect(again.frames.some((f) => f.id === statusOnly)).toBe(false);
    again.close();
  });

  it("ends with the session: signing out closes it", async () => {
    const other = await registeredClient(panel(), {
      username: "liveleaver",
      email: "leaver@example.com",
      password: "live-leaver-1",
    });
    const live = await openLive(other);
    expect((await other.post("/auth/logout", {})).status).toBeLessThan(300);
    expect((await live.closed).code).toBe(4001);
  });

  it("says a server's node cannot be reached, to a watcher already there and to one who comes, then its status again", async () => {
    const before = await openLive(admin);
    before.watch([remote]);
    await before.next(isStatus(remote, false));
    await daemon.stop();
    const unreachable = (f: LiveFrame) => f.type === "status" && f.id === remote && f.unreachable === true;
    // The stream ends with the node, and opening it again fails: the list is told, not left waiting.
    expect(await before.next(unreachable, 15_000)).toEqual({ type: "status", id: remote, unreachable: true });
    const after = await openLive(admin);
    after.watch([remote]);
    await after.next(unreachable, 15_000);
    await daemon.start();
    for (const live of [before, after])
      await live.next(isStatus(remote, false), 20_000, live.frames.findIndex(unreachable) + 1);
    // Said once while it lasted, not at every retry.
    expect(before.frames.filter(unreachable)).toHaveLength(1);
    before.close();
    after.close();
  });
});
