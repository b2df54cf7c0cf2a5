import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { fakeMinecraft, minecraftDefinition, minecraftStatus } from "../support/fake-minecraft.ts";
import { freePort } from "../support/free-port.ts";
import { openttdTemplate } from "../support/openttd-template.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("player count query (HEAD/GET /api/servers/{id}/query)", () => {
  const panel = usePanel();
  let api: PanelClient;
  let minecraft: Awaited<ReturnType<typeof fakeMinecraft>>;
  let silent: Awaited<ReturnType<typeof fakeMinecraft>>;
  const started: string[] = [];

  async function create(id: string, definition: Record<string, unknown>, node = 0) {
    const res = await api.put(`/api/servers/${id}`, { ...definition, name: `query ${id}`, node });
    expect(res.status, res.text).toBe(200);
  }
  async function start(id: string) {
    started.push(id);
    const res = await api.post(`/api/servers/${id}/start?wait`);
    expect(res.status, res.text).toBe(204);
    expect((await api.get(`/api/servers/${id}/status`)).body.running).toBe(true);
  }
  async function stop(id: string) {
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    await waitUntil(async () => (await api.get(`/api/servers/${id}/status`)).body.running === false, 10_000);
  }
  const head = (id: string, client = api) => client.call("HEAD", `/api/servers/${id}/query`);
  const query = (id: string, client = api) => client.get(`/api/servers/${id}/query`);

  beforeAll(async () => {
    api = await adminClient(panel());
    minecraft = await fakeMinecraft(minecraftStatus);
    silent = await fakeMinecraft(minecraftStatus, true);
  });
  afterAll(async () => {
    for (const id of started) await api?.post(`/api/servers/${id}/kill`);
    await minecraft?.close();
    await silent?.close();
  });

  it("asks a real OpenTTD server: 204 while stopped, its players and name while running", async () => {
    const id = "0a7e5001";
    const template = openttdTemplate(await freePort());
    template.data.maxplayers.value = 7;
    template.data.servername.value = "Outpost Query Test";
    await create(id, template);

    expect((await head(id)).status).toBe(202);
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    const stopped = await query(id);
    expect(stopped.status).toBe(204);
    expect(stopped.text).toBe("");

    await start(id);
    // OpenTTD answers about a second after it starts; until then the answer is "none" (204).
    let answer: Awaited<ReturnType<typeof query>> | undefined;
    await waitUntil(
      async () => {
        answer = await query(id);
        return answer.status === 200;
      },
      30_000,
      500,
    );
    expect(answer?.body).toEqual({
      openttd: {
        numPlayers: 0,
        maxPlayers: 7,
        version: expect.stringMatching(/^\d+\.\d+/),
        players: null,
        name: "Outpost Query Test",
      },
    });

    // Asked again once the answer is stale: the game logs each question as a client that came and
    // went; its console leaves those lines out (issue 41), and shows the rest.
    await new Promise((r) => setTimeout(r, 5500));
    expect((await query(id)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2000));
    const logs = Buffer.from((await api.get(`/api/servers/${id}/console`)).body.logs, "base64").toString();
    expect(logs).toContain("starting game");
    expect(logs).not.toMatch(/Client connected from 127\.0\.0\.1|closed connection/);

    await stop(id);
    expect((await query(id)).status).toBe(204);
  });

  it("answers a Minecraft status ping in the reference's shape, one ping for many viewers", async () => {
    const id = "0a7e5002";
    await create(id, minecraftDefinition(minecraft.port));
    expect((await head(id)).status).toBe(202);
    expect((await query(id)).status).toBe(204);
    expect(minecraft.pings()).toBe(0);

    await start(id);
    const answers = await Promise.all([query(id), query(id), query(id)]);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({
        minecraft: { numPlayers: 2, maxPlayers: 20, version: "1.21.4", players: ["Alex", "Steve"] },
      });
    }
    expect((await query(id)).status).toBe(200);
    // Three viewers at once and one more right after: the game server was asked once.
    expect(minecraft.pings()).toBe(1);
    await stop(id);
    expect((await query(id)).status).toBe(204);
  });

  it("answers 204 when the game server does not answer, instead of waiting for it", async () => {
    const id = "0a7e5003";
    await create(id, minecraftDefinition(silent.port));
    await start(id);
    const answer = await query(id);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe("");
    await stop(id);
  });

  it("has nothing to ask of a server whose template names no query, or no port", async () => {
    const none = "0a7e5004";
    await create(none, echoDefinition());
    expect((await head(none)).status).toBe(204);
    await start(none);
    expect((await query(none)).status).toBe(204);
    await stop(none);

    const unknownType = "0a7e5005";
    await create(unknownType, echoDefinition({ query: { type: "no-such-game" } }));
    expect((await head(unknownType)).status).toBe(204);

    const noPort = "0a7e5006";
    const echo = echoDefinition();
    await create(noPort, { ...echo, data: { motd: echo.data.motd }, query: { type: "minecraft" } });
    expect((await head(noPort)).status).toBe(202);
    await start(noPort);
    expect((await query(noPort)).status).toBe(204);
    await stop(noPort);

    expect((await head("0a7e50ff")).status).toBe(404);
    expect((await query("0a7e50ff")).status).toBe(404);
  });

  it("needs server.stats on that server", async () => {
    const id = "0a7e5007";
    await create(id, minecraftDefinition(minecraft.port));
    const user = await registeredClient(panel(), {
      username: "queryviewer",
      email: "queryviewer@example.com",
      password: "a long password",
    });
    await setServerScopes(panel(), "queryviewer@example.com", id, ["server.view", "server.status"]);
    expect((await head(id, user)).status).toBe(403);
    const refused = await query(id, user);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "ErrMissingScope",
      metadata: { scope: "server.stats" },
    });

    await setServerScopes(panel(), "queryviewer@example.com", id, ["server.view", "server.stats"]);
    expect((await head(id, user)).status).toBe(202);
    expect((await query(id, user)).status).toBe(204);
  });

  describe("on a remote node", () => {
    let daemon: DaemonProcess;
    let nodeId: number;

    beforeAll(async () => {
      ({ nodeId, daemon } = await addRemoteNode(api, "query-host"));
    });
    afterAll(async () => {
      for (const id of ["0a7e5101", "0a7e5102"]) await api?.post(`/api/servers/${id}/kill`);
      await daemon?.destroy();
    });

    it("says whether it can ask, answers 204 for no answer, and relays an answer", async () => {
      const none = "0a7e5101";
      await create(none, echoDefinition(), nodeId);
      expect((await head(none)).status).toBe(204);
      const stopped = await query(none);
      expect(stopped.status).toBe(204);
      expect(stopped.text).toBe("");

      const asked = "0a7e5102";
      await create(asked, minecraftDefinition(minecraft.port), nodeId);
      expect((await head(asked)).status).toBe(202);
      expect((await query(asked)).status).toBe(204);
      await start(asked);
      const before = minecraft.pings();
      const answer = await query(asked);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({
        minecraft: { numPlayers: 2, maxPlayers: 20, version: "1.21.4", players: ["Alex", "Steve"] },
      });
      expect(minecraft.pings()).toBe(before + 1);
      await stop(asked);
      expect((await query(asked)).status).toBe(204);
    });
  });
});
