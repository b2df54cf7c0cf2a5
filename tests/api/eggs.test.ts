import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadYaml, parseDocumentText } from "../../server/templates/index.ts";
import { setGlobalScopes, setServerScopes, withPanelDb } from "../support/panel-db.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

// YAML is read synchronously once js-yaml is loaded (server/templates/yaml.ts).
beforeAll(loadYaml);

/**
 * Pterodactyl / Pelican eggs through the API (issue 28): PUT /api/templates/0/{name} takes an
 * egg as its body, and a repository of eggs (nested folders, JSON and YAML) is listed like a
 * template repository. Eggs from the vendored corpus (tests/fixtures/pelican-eggs).
 */
const eggs = path.resolve(import.meta.dirname, "../fixtures/pelican-eggs");
const paperFile = "parkervcp-eggs-2024/game_eggs/minecraft/java/paper/egg-paper.json";
const insurgencyFile = "games-steamcmd-2026/insurgency/egg-insurgency.yaml";
const museFile = "parkervcp-eggs-2024/bots/discord/muse/egg-muse.json";
const valheimFile = "games-steamcmd-2026/valheim/valheim_vanilla/egg-valheim.json";

function egg(file: string): Record<string, unknown> {
  const read = parseDocumentText(fs.readFileSync(path.join(eggs, file), "utf8"));
  if (!read.ok) throw new Error(read.problem);
  return read.document as Record<string, unknown>;
}

describe("egg import", () => {
  const panel = usePanel();
  let admin: Client;
  let editor: Client;
  let work: string;

  beforeAll(async () => {
    admin = await adminClient(panel());
    editor = await registeredClient(panel(), {
      username: "eggeditor",
      email: "egg@example.com",
      password: "egg-pass-123",
    });
    await setGlobalScopes(panel(), "egg@example.com", ["login", "templates.view", "templates.local.edit"]);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-eggs-"));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  /**
   * The administrator creates a server from a saved egg, on the host environment (no Docker engine
   * needed to hold it); answers the template as read and the definition made from it.
   */
  async function hostServerFrom(name: string, id: string) {
    const template = (await admin.get(`/api/templates/0/${name}`)).body;
    const { name: _n, supportedEnvironments: _s, ...definition } = template;
    const created = await admin.put(`/api/servers/${id}`, {
      ...definition,
      environment: { type: "host" },
      node: 0,
    });
    expect(created.status, created.text).toBe(200);
    return { template, definition };
  }

  it("imports a Minecraft egg with its config parsers, variables and install script", async () => {
    const put = await admin.put("/api/templates/0/paper", egg(paperFile));
    expect(put.status, put.text).toBe(204);
    const template = (await admin.get("/api/templates/0/paper")).body;
    expect(template).toMatchObject({
      name: "paper",
      display: "Paper",
      type: "minecraft-java",
      environment: {
        type: "docker",
        image: "ghcr.io/pterodactyl/yolks:java_8",
        containerRoot: "/home/container",
      },
      run: {
        command:
          "java -Xms128M -Xmx${memory}M -Dterminal.jline=false -Dterminal.ansi=true -jar ${SERVER_JARFILE}",
        stop: "stop",
        environmentVars: {
          SERVER_MEMORY: "${memory}",
          SERVER_PORT: "${port}",
          SERVER_JARFILE: "${SERVER_JARFILE}",
        },
      },
      data: {
        SERVER_JARFILE: { type: "string", value: "server.jar", required: true, userEdit: true },
        DL_PATH: { type: "string", value: "", userEdit: false },
        memory: { type: "integer", value: 1024 },
        port: { type: "integer", value: 25565 },
        EULA: { type: "boolean", value: false, userEdit: true },
      },
      egg: {
        format: "PTDL_v2",
        install: { image: "ghcr.io/parkervcp/installers:alpine", entrypoint: "ash" },
        configFiles: [
          {
            file: "server.properties",
            parser: "properties",
            find: { "server-ip": "0.0.0.0", "server-port": "${port}", "query.port": "${port}" },
          },
          { file: "eula.txt", parser: "properties", find: { eula: "${EULA}" } },
        ],
        done: [")! For help, type "],
        features: ["eula", "java_version", "pid_limit"],
        rules: { SERVER_JARFILE: { patterns: [{ source: "^([\\w\\d._-]+)(\\.jar)$", flags: "u" }] } },
        hidden: ["DL_PATH"],
      },
    });
    expect(template.egg.install.script).toMatch(/cd \/mnt\/server/);
    expect(template.supportedEnvironments).toHaveLength(6);
  });

  it("imports a SteamCMD game and a YAML PLCN_v3 egg", async () => {
    expect((await admin.put("/api/templates/0/valheim", egg(valheimFile))).status).toBe(204);
    const valheim = (await admin.get("/api/templates/0/valheim")).body;
    expect(valheim.egg.install.image).toMatch(/installers/);
    expect(valheim.egg.install.script).toMatch(/steamcmd/);
    expect(valheim.run.stopCode).toBe(2);

    const insurgency = egg(insurgencyFile);
    expect((insurgency.meta as { version: string }).version).toBe("PLCN_v3");
    expect((await admin.put("/api/templates/0/insurgency", insurgency)).status).toBe(204);
    expect((await admin.get("/api/templates/0/insurgency")).body).toMatchObject({
      display: "Insurgency",
      run: {
        command:
          "./srcds_run -game insurgency -console -port ${port} +map ${SRCDS_MAP} +ip 0.0.0.0 -strictportbind -norestart",
        stop: "quit",
      },
      data: {
        SRCDS_MAP: { type: "string", value: "contact", userEdit: true },
        SRCDS_APPID: { type: "option", value: "237410", userEdit: false },
      },
      environment: { image: "ghcr.io/pelican-eggs/steamcmd:debian" },
      egg: {
        format: "PLCN_v3",
        install: { image: "ghcr.io/pelican-eggs/installers:debian", entrypoint: "bash" },
        done: ["gameserver Steam ID"],
        rules: { SRCDS_MAP: { patterns: [{ source: "^(\\w{1,20})$", flags: "u" }] } },
      },
    });
  });

  it("imports a Discord bot whose config is a file of lines", async () => {
    expect((await admin.put("/api/templates/0/muse", egg(museFile))).status).toBe(204);
    expect((await admin.get("/api/templates/0/muse")).body).toMatchObject({
      run: { command: "npm start", stopCode: 2 },
      data: { discord_token: { type: "string", value: "", userEdit: true } },
      environment: { image: "ghcr.io/parkervcp/yolks:nodejs_20" },
      egg: {
        install: { image: "node:lts-bookworm-slim", entrypoint: "bash" },
        configFiles: [
          { file: ".env", parser: "file", find: { DISCORD_TOKEN: "DISCORD_TOKEN=${discord_token}" } },
        ],
        done: ["Running version "],
      },
    });
  });

  it("refuses an egg it cannot convert, naming the field", async () => {
    const ragemp = egg("parkervcp-eggs-2024/game_eggs/gta/ragemp/egg-rage--m-p.json");
    const refused = await admin.put("/api/templates/0/ragemp", ragemp);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: "ErrTemplateInvalid",
      msg: "template invalid at ${path}: ${problem}",
      metadata: {
        path: "config.stop",
        problem: "^X names no signal we can send (^C is SIGINT)",
        problems: 1,
      },
    });
    const broken = { ...egg(paperFile), variables: [{ env_variable: "X", rules: "required|uuid" }] };
    expect((await admin.put("/api/templates/0/broken", broken)).body.error.metadata).toMatchObject({
      path: "variables[0].rules",
      problem: 'rule "uuid" is not supported',
    });
  });

  it("vouches for an egg an administrator saved, not for one a non-administrator saved", async () => {
    expect((await editor.put("/api/templates/0/muse-by-user", egg(museFile))).status).toBe(204);
    const rows = await withPanelDb(panel(), (db) =>
      db
        .selectFrom("templates")
        .select(["name", "by_admin"])
        .where("name", "in", ["muse", "muse-by-user"])
        .execute(),
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, Number(row.by_admin)]))).toEqual({
      muse: 1,
      "muse-by-user": 0,
    });
  });

  it("keeps an egg's part (install image, denylist) against a non-administrator's definition", async () => {
    const id = "e99a0001";
    await hostServerFrom("paper", id);
    await setServerScopes(panel(), "egg@example.com", id, [
      "server.view",
      "server.definition.view",
      "server.definition.edit",
    ]);
    const stored = (await editor.get(`/api/servers/${id}/definition`)).body;
    const install = { ...stored.egg.install, image: "attacker/any-image:latest" };
    const changed = await editor.put(`/api/servers/${id}/definition`, {
      ...stored,
      egg: { ...stored.egg, install },
    });
    expect(changed.status).toBe(403);
    expect(changed.body.error.code).toBe("ErrEnvironmentAdminOnly");
    // So is the rest of the egg's part: its denylist protects files from these very users.
    const unprotected = await editor.put(`/api/servers/${id}/definition`, {
      ...stored,
      egg: { ...stored.egg, denylist: [] },
    });
    expect(unprotected.status).toBe(403);
    // Left out, the egg part is kept; its own image stays allowed.
    const { egg: _e, ...rest } = stored;
    expect((await editor.put(`/api/servers/${id}/definition`, { ...rest, display: "Kept" })).status).toBe(
      204,
    );
    const kept = (await admin.get(`/api/servers/${id}/definition`)).body;
    expect(kept.display).toBe("Kept");
    expect(kept.egg.install.image).toBe("ghcr.io/parkervcp/installers:alpine");
    expect((await editor.put(`/api/servers/${id}/definition`, kept)).status).toBe(204);
  });

  it("hides a variable the egg does not let users view from everyone but administrators", async () => {
    const secretEgg = {
      meta: { version: "PTDL_v2" },
      name: "Hidden values",
      docker_images: { Node: "ghcr.io/parkervcp/yolks:nodejs_20" },
      startup: "node bot.js {{BOT_NAME}}",
      config: { stop: "^C", startup: "{}", files: "{}", logs: "{}" },
      variables: [
        {
          name: "Bot name",
          env_variable: "BOT_NAME",
          default_value: "bot",
          user_viewable: true,
          user_editable: true,
          rules: "required|string|max:20",
        },
        // Pterodactyl: an operator's secret the server's users neither see nor change.
        {
          name: "Licence key",
          env_variable: "LICENCE_KEY",
          default_value: "s3cret-licence-value",
          user_viewable: false,
          user_editable: true,
          rules: "nullable|string",
        },
        {
          name: "Region",
          env_variable: "REGION",
          default_value: "eu-hidden-region",
          user_viewable: false,
          user_editable: false,
          rules: "nullable|string",
        },
      ],
    };
    expect((await admin.put("/api/templates/0/hidden-values", secretEgg)).status).toBe(204);
    const id = "e99a0002";
    const { template, definition } = await hostServerFrom("hidden-values", id);
    // Every server scope, the server's administrator's included: still not an administrator.
    await setServerScopes(panel(), "egg@example.com", id, [
      "server.view",
      "server.data.view",
      "server.data.edit",
      "server.data.edit.admin",
      "server.definition.view",
      "server.definition.edit",
    ]);
    const data = await editor.get(`/api/servers/${id}/data`);
    expect(data.status).toBe(200);
    expect(data.body.data.BOT_NAME).toBeDefined();
    expect(data.body.data.LICENCE_KEY).toBeUndefined();
    // The rules come along for the settings screen to check values as the node does.
    expect(data.body.rules).toEqual({ BOT_NAME: { maxLength: 20 } });
    const read = await editor.get(`/api/servers/${id}/definition`);
    expect(read.status).toBe(200);
    expect(read.body.data.LICENCE_KEY).toBeUndefined();
    expect(read.body.data.REGION).toBeUndefined();
    for (const answer of [data.text, read.text]) {
      expect(answer).not.toContain("s3cret-licence-value");
      expect(answer).not.toContain("eu-hidden-region");
    }
    // Not changeable either, by any of the ways a value is set.
    const posted = await editor.post(`/api/servers/${id}/data`, { data: { LICENCE_KEY: { value: "mine" } } });
    expect(posted.status).toBe(403);
    expect(posted.body.error.code).toBe("ErrVariableNotEditable");
    const put = await editor.put(`/api/servers/${id}/data`, { data: { REGION: { value: "us" } } });
    expect(put.status).toBe(403);
    const redefined = await editor.put(`/api/servers/${id}/definition`, {
      ...read.body,
      data: { ...read.body.data, LICENCE_KEY: { type: "string", value: "mine" } },
    });
    expect(redefined.status).toBe(403);
    // What they can read they can write back: the hidden values are kept.
    const back = await editor.put(`/api/servers/${id}/definition`, { ...read.body, display: "Renamed" });
    expect(back.status, back.text).toBe(204);
    expect(
      (await editor.post(`/api/servers/${id}/data`, { data: { BOT_NAME: { value: "mine" } } })).status,
    ).toBe(204);
    // Administrators see (and set) them.
    const adminData = (await admin.get(`/api/servers/${id}/data`)).body.data;
    expect(adminData.LICENCE_KEY.value).toBe("s3cret-licence-value");
    expect(adminData.REGION.value).toBe("eu-hidden-region");
    const adminRead = (await admin.get(`/api/servers/${id}/definition`)).body;
    expect(adminRead.display).toBe("Renamed");
    expect(adminRead.data.LICENCE_KEY.value).toBe("s3cret-licence-value");
    expect(
      (await admin.post(`/api/servers/${id}/data`, { data: { LICENCE_KEY: { value: "new" } } })).status,
    ).toBe(204);
    // Nor set at creation: a non-administrator's server from the egg keeps the egg's values.
    await setGlobalScopes(panel(), "egg@example.com", [
      "login",
      "templates.view",
      "templates.local.edit",
      "server.create",
    ]);
    // On the egg's own environment, as a non-administrator must.
    const creation = (data: Record<string, unknown>) =>
      editor.put("/api/servers/e99a0003", { ...template, name: "made by a user", data, node: 0 });
    const mine = await creation({
      ...definition.data,
      LICENCE_KEY: { ...definition.data.LICENCE_KEY, value: "mine" },
    });
    expect(mine.status).toBe(403);
    expect(mine.body.error.code).toBe("ErrTemplateRequired");
    // Their own values are theirs: past this check (the node may then lack Docker here).
    const own = await creation({
      ...definition.data,
      BOT_NAME: { ...definition.data.BOT_NAME, value: "mybot" },
    });
    expect(own.body.error?.code, own.text).not.toBe("ErrTemplateRequired");
    if (own.status === 200) await admin.delete("/api/servers/e99a0003");
    await setGlobalScopes(panel(), "egg@example.com", ["login", "templates.view", "templates.local.edit"]);
  });

  it("lists a repository of eggs in nested folders, JSON and YAML", async () => {
    const folder = path.join(work, "egg-repo");
    for (const file of [paperFile, insurgencyFile, museFile]) {
      const target = path.join(folder, file.split("/").slice(1).join("/"));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(eggs, file), target);
    }
    // Not an egg, deep in the tree: ignored, as a template repository ignores such files.
    fs.writeFileSync(path.join(folder, "game_eggs", "minecraft", "package.json"), '{"name":"x"}');
    const added = await admin.post("/api/templates", { name: "eggs", url: folder });
    expect(added.status, added.text).toBe(200);
    const listed = await admin.get(`/api/templates/${added.body.id}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((t: { name: string; display: string }) => [t.name, t.display])).toEqual([
      ["egg-insurgency", "Insurgency"],
      ["egg-muse", "Muse"],
      ["egg-paper", "Paper"],
    ]);
    const paper = await admin.get(`/api/templates/${added.body.id}/egg-paper`);
    expect(paper.body.egg.configFiles[0].file).toBe("server.properties");
  });
});
