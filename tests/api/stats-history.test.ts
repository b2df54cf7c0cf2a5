import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { fakeMinecraft, minecraftDefinition, minecraftStatus } from "../support/fake-minecraft.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/** One sample a second, on the panel's local node and on the remote daemon alike. */
const sampleEnv = { OUTPOST_STATS_SAMPLE_SECONDS: "1" };

describe("resource history (GET /api/servers/{id}/stats/history, /api/nodes/{id}/stats/history)", () => {
  const panel = usePanel({ env: sampleEnv });
  let api: PanelClient;
  let remote: { nodeId: number; daemon: DaemonProcess } | undefined;
  const started: string[] = [];

  beforeAll(async () => {
    api = await adminClient(panel());
    remote = await addRemoteNode(api, "history-host", sampleEnv);
  });
  afterAll(async () => {
    for (const id of started) await api?.post(`/api/servers/${id}/kill`);
    await remote?.daemon.destroy();
  });

  async function runningServer(id: string, node: number, definition: object = echoDefinition()) {
    const res = await api.put(`/api/servers/${id}`, { ...definition, name: `history ${id}`, node });
    expect(res.status, res.text).toBe(200);
    started.push(id);
    expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
  }

  for (const where of ["local", "remote"] as const) {
    it(`samples a running server within seconds (${where} node)`, async () => {
      const id = where === "local" ? "4157a001" : "4157a002";
      const node = where === "local" ? 0 : (remote?.nodeId ?? -1);
      await runningServer(id, node);

      let history: any;
      await waitUntil(
        async () => {
          history = (await api.get(`/api/servers/${id}/stats/history?range=1h`)).body;
          return history.points?.length >= 2;
        },
        15_000,
        250,
      );
      expect(history.range).toBe("1h");
      expect(history.step).toBe(1);
      const last = history.points[history.points.length - 1];
      // A real process: it holds memory, and its folder holds its files.
      expect(last.memory).toBeGreaterThan(0);
      expect(last.disk).toBeGreaterThan(0);
      expect(last.cpu).toBeGreaterThanOrEqual(0);
      expect(Math.abs(last.time - Date.now())).toBeLessThan(60_000);
      expect(history.points[0].time).toBeLessThan(last.time);

      // The long ranges answer the hour under way, rolled up so far.
      const month = await api.get(`/api/servers/${id}/stats/history?range=30d`);
      expect(month.status, month.text).toBe(200);
      expect(month.body.step).toBe(3600);
      const hour = month.body.points[month.body.points.length - 1];
      expect(hour.min.memory).toBeLessThanOrEqual(hour.memory);
      expect(hour.max.memory).toBeGreaterThanOrEqual(hour.memory);

      const nodeHistory = await api.get(`/api/nodes/${node}/stats/history?range=1h`);
      expect(nodeHistory.status, nodeHistory.text).toBe(200);
      expect(nodeHistory.body.points.length).toBeGreaterThan(0);
      expect(nodeHistory.body.totals.cpus).toBeGreaterThan(0);
      expect(nodeHistory.body.totals.memory).toBeGreaterThan(nodeHistory.body.points[0].memory);
      const mine = nodeHistory.body.servers.find((s: { id: string }) => s.id === id);
      expect(mine).toMatchObject({ name: `history ${id}`, range: "1h" });
      expect(mine.points.length).toBeGreaterThan(0);
    });
  }

  it("records the players the server's query reports; a deleted server's history goes with it", async () => {
    const game = await fakeMinecraft(minecraftStatus); // two players online
    const id = "4157a005";
    try {
      await runningServer(id, 0, minecraftDefinition(game.port));
      await waitUntil(
        async () => {
          const { points } = (await api.get(`/api/servers/${id}/stats/history`)).body;
          return points.some((p: { players?: number }) => p.players === 2);
        },
        15_000,
        250,
      );
    } finally {
      await api.post(`/api/servers/${id}/kill`);
      await game.close();
    }
    const folder = path.join(panel().dataDir, "node", "history");
    const files = () => fs.readdirSync(folder).filter((name) => name.startsWith(`server-${id}.`));
    expect(files().length).toBeGreaterThan(0);
    expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
    await waitUntil(async () => files().length === 0, 10_000, 200);
  });

  it("refuses a range it does not know, in the API's envelope", async () => {
    await runningServer("4157a003", 0);
    for (const range of ["2h", "", "1h;drop"]) {
      expectError(
        await api.get(`/api/servers/4157a003/stats/history?range=${range}`),
        400,
        "ErrFieldInvalid",
      );
      expectError(await api.get(`/api/nodes/0/stats/history?range=${range}`), 400, "ErrFieldInvalid");
    }
    // No range is the last hour.
    expect((await api.get("/api/servers/4157a003/stats/history")).body.range).toBe("1h");
    expectError(await api.get("/api/servers/4157a0ff/stats/history"), 404, "ErrServerNotFound");
  });

  it("needs server.stats on the server, and nodes.view for a node", async () => {
    const id = "4157a004";
    const res = await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: "history scopes", node: 0 });
    expect(res.status, res.text).toBe(200);
    const account = newUser("historyviewer");
    const user = await registeredClient(panel(), account);
    await setServerScopes(panel(), account.email, id, ["server.view", "server.status"]);
    expectError(await user.get(`/api/servers/${id}/stats/history`), 403, "ErrMissingScope", {
      scope: "server.stats",
    });
    expectError(await user.get("/api/nodes/0/stats/history"), 403, "ErrMissingScope", {
      scope: "nodes.view",
    });

    await setServerScopes(panel(), account.email, id, ["server.view", "server.stats"]);
    const allowed = await user.get(`/api/servers/${id}/stats/history?range=24h`);
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body).toMatchObject({ range: "24h", points: [] });
    // A server's scope does not open its node's overview (other users' servers).
    expectError(await user.get("/api/nodes/0/stats/history"), 403, "ErrMissingScope");
  });
});
