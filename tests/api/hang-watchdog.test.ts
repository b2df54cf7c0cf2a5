import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HookListener } from "../support/alert-receivers.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { fakeGameDefinition, fakeGameScript } from "../support/fake-game.ts";
import { fakeMinecraft, minecraftStatus } from "../support/fake-minecraft.ts";
import { upload } from "../support/file-requests.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { consoleText } from "../support/server-console.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

const starts = (text: string) => text.split("Starting server").length - 1;

/**
 * The hang watchdog (issue 37): a running server whose query fails N rounds in a row is restarted
 * and a server.unresponsive alert goes out through the channels; off by default. The watchdog asks
 * every half second here (OUTPOST_WATCHDOG_SECONDS); a silent stand-in game never answers the query.
 */
describe("hang watchdog", () => {
  const panel = usePanel({ env: { OUTPOST_WATCHDOG_SECONDS: "0.5" } });
  const hooks = new HookListener();
  let api: PanelClient;
  let base: string;
  let silent: Awaited<ReturnType<typeof fakeMinecraft>>;
  let answering: Awaited<ReturnType<typeof fakeMinecraft>>;
  const ids = { hung: "0dd0d001", off: "0dd0d002", fine: "0dd0d003", again: "0dd0d004" };
  const remoteId = "0dd0d101";
  let remote: { nodeId: number; daemon: DaemonProcess } | undefined;

  beforeAll(async () => {
    base = await hooks.start();
    api = await adminClient(panel());
    silent = await fakeMinecraft(minecraftStatus, true);
    answering = await fakeMinecraft(minecraftStatus);
  });
  afterAll(async () => {
    for (const id of [...Object.values(ids), remoteId]) await api?.post(`/api/servers/${id}/kill`);
    await remote?.daemon.destroy();
    await silent?.close();
    await answering?.close();
    await hooks.stop();
  });

  async function create(id: string, queryPort: number, restartAfter?: number, node = 0) {
    const definition = fakeGameDefinition();
    definition.data.port.value = queryPort;
    const made = await api.put(`/api/servers/${id}`, { ...definition, name: `watchdog ${id}`, node });
    expect(made.status, made.text).toBe(200);
    expect((await upload(api, `/api/servers/${id}/file/game.js`, fakeGameScript)).status).toBe(204);
    if (restartAfter !== undefined) {
      const set = await api.post(`/api/servers/${id}/flags`, { unresponsiveRestartAfter: restartAfter });
      expect(set.status, set.text).toBe(204);
    }
  }

  it("is off by default and kept as a flag", async () => {
    await create(ids.off, 0);
    expect((await api.get(`/api/servers/${ids.off}/flags`)).body).toEqual({
      autoStart: false,
      autoRestartOnCrash: false,
      autoRestartOnGraceful: false,
    });
    await create(ids.hung, 0, 2);
    expect((await api.get(`/api/servers/${ids.hung}/flags`)).body).toMatchObject({
      unresponsiveRestartAfter: 2,
    });
    const refused = await api.post(`/api/servers/${ids.hung}/flags`, { unresponsiveRestartAfter: 1000 });
    expect(refused.status).toBe(400);
  });

  it("restarts a server whose query fails twice in a row and raises server.unresponsive", async () => {
    // The same silent game for both: only the one with the watchdog on is restarted.
    for (const id of [ids.hung, ids.off]) {
      const res = await api.put(`/api/servers/${id}/data`, { data: { port: { value: silent.port } } });
      expect(res.status, res.text).toBeLessThan(300);
    }
    await create(ids.fine, answering.port, 2);
    const hook = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.unresponsive"],
      servers: [ids.hung, ids.off, ids.fine],
      url: `${base}/hook`,
    });
    expect(hook.status, hook.text).toBe(200);
    for (const id of [ids.hung, ids.off, ids.fine])
      expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);

    const alert = JSON.parse((await hooks.nth("/hook", 1, 30_000)).body.toString());
    expect(alert).toMatchObject({ event: "server.unresponsive", server: { id: ids.hung } });
    await waitUntil(async () => starts(await consoleText(api, ids.hung)) === 2, 15_000);
    const hung = await consoleText(api, ids.hung);
    expect(hung).toContain("did not answer its query 2 times in a row; restarting it");
    expect(hung).toContain("Stopping the server");
    expect((await api.get(`/api/servers/${ids.hung}/status`)).body).toMatchObject({ running: true });

    // Meanwhile the one that answers and the one with the watchdog off ran on, untouched.
    expect(starts(await consoleText(api, ids.fine))).toBe(1);
    expect(starts(await consoleText(api, ids.off))).toBe(1);
    expect(hooks.to("/hook").map((r) => JSON.parse(r.body.toString()).server.id)).toEqual([ids.hung]);
  });

  it("clears the mark once the query answers again", async () => {
    const res = await api.put(`/api/servers/${ids.hung}/data`, { data: { port: { value: answering.port } } });
    expect(res.status, res.text).toBeLessThan(300);
    await waitUntil(
      async () => !(await api.get(`/api/servers/${ids.hung}/status`)).body.unresponsive,
      15_000,
    );
    expect((await api.get(`/api/servers/${ids.hung}/status`)).body.running).toBe(true);
  });

  it("stops a server that hangs again and again after three restarts, alerts and leaves it stopped", async () => {
    await create(ids.again, silent.port, 1);
    const hook = await api.post("/api/self/notifications", {
      type: "webhook",
      events: ["server.unresponsive"],
      servers: [ids.again],
      url: `${base}/hook-again`,
    });
    expect(hook.status, hook.text).toBe(200);
    expect((await api.post(`/api/servers/${ids.again}/start?wait`)).status).toBe(204);
    await waitUntil(
      async () => (await api.get(`/api/servers/${ids.again}/status`)).body.unresponsiveStopped === true,
      30_000,
    );
    const gaveUp = JSON.parse((await hooks.nth("/hook-again", 2, 15_000)).body.toString());
    expect(gaveUp).toMatchObject({ event: "server.unresponsive", server: { id: ids.again } });
    expect(gaveUp.message).toContain("kept not answering its query (3 restarts in 10 minutes)");
    await waitUntil(async () => !(await api.get(`/api/servers/${ids.again}/status`)).body.running, 15_000);
    const said = await consoleText(api, ids.again);
    expect(said).toContain("restarts in the last 10 min: 3); stopping it and leaving it stopped");
    // Its first start and three restarts; then the watchdog's rounds go on and it stays stopped.
    expect(starts(said)).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(starts(await consoleText(api, ids.again))).toBe(4);
    expect((await api.get(`/api/servers/${ids.again}/status`)).body).toMatchObject({ running: false });
    expect(hooks.to("/hook-again")).toHaveLength(2);

    // Started again by someone, it is watched afresh: the mark goes, and it is restarted again.
    expect((await api.post(`/api/servers/${ids.again}/start?wait`)).status).toBe(204);
    expect((await api.get(`/api/servers/${ids.again}/status`)).body.unresponsiveStopped).toBeUndefined();
    await waitUntil(async () => starts(await consoleText(api, ids.again)) >= 6, 20_000);
  });

  it("runs on a remote node too, at the pace of the node's own OUTPOST_WATCHDOG_SECONDS", async () => {
    remote = await addRemoteNode(api, "watchdog-host", { OUTPOST_WATCHDOG_SECONDS: "0.5" });
    await create(remoteId, silent.port, 1, remote.nodeId);
    expect((await api.post(`/api/servers/${remoteId}/start?wait`)).status).toBe(204);
    await waitUntil(async () => starts(await consoleText(api, remoteId)) >= 2, 20_000);
    expect(await consoleText(api, remoteId)).toContain(
      "did not answer its query 1 time in a row; restarting it",
    );
    await waitUntil(
      async () => (await api.get(`/api/servers/${remoteId}/status`)).body.unresponsive === true,
      10_000,
    );
  });
});
