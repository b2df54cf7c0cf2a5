import { beforeAll, describe, expect, it } from "vitest";
import { closeWatchFlood, watchRate } from "../../server/api/live.ts";
import { createEchoServer } from "../support/echo-server.ts";
import type { PanelClient } from "../support/http-client.ts";
import { openLive } from "../support/live-client.ts";
import { adminClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * Issue 35, P2: any signed-in user, even one with no server, sent `watch` frames without limit;
 * each read the caller's rights on up to 200 servers, and 600 of them held /api/health for 24.6 s.
 * A socket now gets a burst of watches and then a few a second; a flood closes it.
 */
describe("/api/live: a flood of watch frames costs the flooder", () => {
  const panel = usePanel();
  const id = "f100d001";
  let nobody: PanelClient;

  beforeAll(async () => {
    const admin = await adminClient(panel());
    await createEchoServer(admin, id);
    nobody = await registeredClient(panel(), {
      username: "flooder",
      email: "flooder@example.com",
      password: "flooder-pass-1",
    });
  });

  it("closes a socket that sends watches faster than a person could, with a code that says why", async () => {
    const live = await openLive(nobody);
    const ids = Array.from({ length: 200 }, (_, i) => `f100${String(i).padStart(4, "0")}`);
    for (let i = 0; i < 600; i++) live.watch(ids);
    const closed = await live.closed;
    expect(closed).toEqual({ code: closeWatchFlood, reason: expect.stringMatching(/too many watch frames/) });
    // The panel answers others as before.
    expect((await nobody.get("/api/health")).status).toBe(200);
  });

  it("keeps a socket whose watches come at a person's pace, a burst included", async () => {
    const admin = await adminClient(panel());
    const live = await openLive(admin);
    for (let i = 0; i < watchRate.burst - 1; i++) live.watch([id]);
    await live.next((frame) => frame.type === "status" && frame.id === id);
    live.watch([id]);
    const seen = live.frames.length;
    await live.next((frame) => frame.type === "status" && frame.id === id, 10_000, seen);
    const open = await Promise.race([
      live.closed.then(() => false),
      new Promise((r) => setTimeout(() => r(true), 300)),
    ]);
    expect(open).toBe(true);
    live.close();
  });
});
