import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTemplate } from "../../server/templates/index.ts";
import { expectError } from "../support/expect-api.ts";
import { freePort } from "../support/free-port.ts";
import { waitUntil } from "../support/poll.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, type PanelClient, usePanel } from "../support/test-panel.ts";

type Variables = Record<string, { value: unknown }>;

/** A server made the way the wizard makes one: the starter template, some values changed, PUT. */
async function createFromStarter(
  api: PanelClient,
  id: string,
  name: string,
  values: Record<string, unknown>,
): Promise<void> {
  const template = await api.get(`/api/templates/-1/${name}`);
  expect(template.status, template.text).toBe(200);
  const { readme: _readme, name: _name, ...definition } = template.body;
  for (const [key, value] of Object.entries(values)) (definition.data as Variables)[key].value = value;
  const created = await api.put(`/api/servers/${id}`, { ...definition, name: `starter ${name}`, node: 0 });
  expect(created.status, created.text).toBe(200);
}

describe("the starter templates, shipped with the panel as a read-only repository", () => {
  const panel = usePanel();
  let api: PanelClient;
  const created: string[] = [];

  beforeAll(async () => {
    api = await adminClient(panel());
  });
  afterAll(async () => {
    for (const id of created) await api?.post(`/api/servers/${id}/kill`);
  });

  it("lists the starter repository first, with its templates and their READMEs", async () => {
    const repos = await api.get("/api/templates");
    expect(repos.body[0]).toEqual({
      id: -1,
      name: "Starter",
      url: "",
      branch: "",
      isLocal: false,
      isBuiltIn: true,
    });
    const listed = await api.get("/api/templates/-1");
    expect(listed.body.map((t: { name: string }) => t.name)).toEqual([
      "custom-command",
      "factorio",
      "minecraft-java",
      "openttd",
      "terraria",
    ]);
    expect((await api.get("/api/templates/-1/minecraft-java")).body.readme).toMatch(/EULA/);
  });

  it("answers in the language the request asks for, and PufferPanel's client gets plain templates", async () => {
    const german = { headers: { "accept-language": "de-DE" } };
    const listed = await api.call("GET", "/api/templates/-1", german);
    expect(listed.body.find((t: { name: string }) => t.name === "custom-command").display).toBe(
      "Eigener Befehl",
    );
    const openttd = await api.call("GET", "/api/templates/-1/openttd", german);
    expect(openttd.body.data.mapsize.display).toBe("Kartengröße");
    expect(openttd.body.data.mapsize.desc).toBe("Felder pro Seite der quadratischen Karte");
    expect(openttd.body.data.mapsize.options[0]).toEqual({ value: "6", display: "64 Felder" });
    expect(openttd.body.data.mapsize.value).toBe("8");
    // A browser's list of languages: the first one the panel has texts for; only the language counts.
    const austrian = await api.call("GET", "/api/templates/-1/terraria", {
      headers: { "accept-language": "xx-YY, de-AT;q=0.8, fr;q=0.5" },
    });
    expect(austrian.body.data.worldsize.display).toBe("Weltgröße");

    // PufferPanel's client sends its browser's language or none; English stays English.
    for (const headers of [{}, { "accept-language": "en-US,en;q=0.9" }] as Record<string, string>[]) {
      const plain = await api.call("GET", "/api/templates/-1/openttd", { headers });
      expect(plain.body.data.mapsize.display).toBe("Map size");
      // Whatever the language, the answer is a template of the reference's format, nothing added.
      const { name: _n, readme: _r, ...template } = plain.body;
      expect(parseTemplate(template).ok).toBe(true);
      expect(Object.keys(template).sort()).toEqual(
        Object.keys(openttd.body)
          .filter((k) => k !== "name" && k !== "readme")
          .sort(),
      );
    }
    const { name: _n, readme: _r, ...germanTemplate } = openttd.body;
    expect(parseTemplate(germanTemplate).ok).toBe(true);
  });

  it("cannot be edited or removed", async () => {
    expectError(await api.put("/api/templates/-1/mine", { type: "x" }), 400, "ErrRepoReadOnly");
    expectError(await api.delete("/api/templates/-1/openttd"), 400, "ErrRepoReadOnly");
    expectError(await api.delete("/api/templates/-1"), 400, "ErrRepoReadOnly");
    expect((await api.get("/api/templates/-1")).body).toHaveLength(5);
  });

  it("Custom command runs the given command line in the chosen folder and stops with the chosen text", async () => {
    const id = "5a1e0001";
    created.push(id);
    await createFromStarter(api, id, "custom-command", {
      command: `sh -c "echo ready in $(pwd); read line; echo bye $line"`,
      stop: "now",
      folder: "game",
    });
    const made = await api.put(`/api/servers/${id}/file/game?folder`);
    expect(made.status, made.text).toBe(200);
    const socket = await openServerSocket(api, id);
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
    await waitUntil(async () => /ready in \S*\/game\b/.test(socket.consoleText()), 10_000, 100);
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    await waitUntil(async () => /bye now/.test(socket.consoleText()), 10_000, 100);
    await waitUntil(
      async () => (await api.get(`/api/servers/${id}/status`)).body.running === false,
      10_000,
      100,
    );
    socket.close();
  });

  it("OpenTTD installs from the distribution's package, starts and answers its console", async () => {
    const id = "5a1e0002";
    created.push(id);
    await createFromStarter(api, id, "openttd", {
      ip: "127.0.0.1",
      port: await freePort(),
      servername: "Starter OpenTTD",
      mapsize: "6",
    });
    const socket = await openServerSocket(api, id);
    expect((await api.post(`/api/servers/${id}/install?wait`)).status).toBe(204);
    const config = await api.get(`/api/servers/${id}/file/openttd.cfg`);
    expect(config.text).toContain("server_name = Starter OpenTTD");
    expect(config.text).toContain("server_game_type = local");
    expect((await api.post(`/api/servers/${id}/start?wait`)).status).toBe(204);
    await waitUntil(async () => /starting game|Map generated/i.test(socket.consoleText()), 30_000, 200);
    await api.call("POST", `/api/servers/${id}/console`, {
      raw: "server_info",
      headers: { "content-type": "text/plain" },
    });
    await waitUntil(async () => /Current\/maximum clients/i.test(socket.consoleText()), 10_000, 200);
    expect((await api.post(`/api/servers/${id}/stop?wait`)).status).toBe(204);
    await waitUntil(
      async () => (await api.get(`/api/servers/${id}/status`)).body.running === false,
      10_000,
      100,
    );
    socket.close();
  });
});
