import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { jarBytes, type ModStandin, startModStandin } from "../support/mod-sources-standin.ts";
import { panelSecretBox, storedSetting } from "../support/panel-db.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

/**
 * Mods and plugins (issue 37) through a real panel and both kinds of node. The sources are a
 * STAND-IN on 127.0.0.1 (tests/support/mod-sources-standin.ts): the panel's source settings
 * point at it, and the node downloads its jar files through the public-address guard, which
 * lets the administrator's chosen source hosts through.
 */

const fabricServer = (version = "1.20.1") =>
  echoDefinition({
    type: "minecraft-java",
    data: {
      ...echoDefinition().data,
      mcversion: { type: "string", value: version, display: "Game version", userEdit: true },
    },
    mods: { game: "minecraft", loader: "fabric", version: "${mcversion}", folder: "mods" },
  });

const paperServer = () =>
  echoDefinition({
    type: "minecraft-java",
    mods: { game: "minecraft", loader: "paper", version: "1.20.4", folder: "plugins" },
  });

const modScopes = ["server.view", "server.mods.view", "server.mods.edit"];

function modsOn(label: string, ids: { fabric: string; paper: string }, setup: () => Setup) {
  describe(`mods on ${label}`, () => {
    let s: Setup;
    let folder: string;
    beforeAll(async () => {
      s = setup();
      for (const [id, definition] of [
        [ids.fabric, fabricServer()],
        [ids.paper, paperServer()],
      ] as const) {
        const made = await s.admin.put(`/api/servers/${id}`, { ...definition, name: id, node: s.node() });
        expect(made.status, made.text).toBe(200);
        const granted = await s.admin.put(`/api/servers/${id}/user/${encodeURIComponent(s.userEmail)}`, {
          scopes: modScopes,
        });
        expect(granted.status, granted.text).toBeLessThan(300);
      }
      folder = path.join(s.dataDir(), "servers", ids.fabric, "mods");
    });

    it("searches Modrinth with the server's loader and game version filled in", async () => {
      const res = await s.user.get(`/api/servers/${ids.fabric}/mods/search?source=modrinth&q=mod`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ source: "modrinth", loader: "fabric", version: "1.20.1" });
      // The stand-in also has a Forge mod and a Fabric mod for 1.19.2 only: the filters left them out.
      expect(res.body.hits.map((h: { title: string }) => h.title)).toEqual(["Mod Menu"]);
      const asked = s.standin.requests.filter((r) => r.startsWith("GET /modrinth/v2/search")).at(-1) ?? "";
      const facets = JSON.parse(new URL(asked.slice(4), "http://x").searchParams.get("facets") ?? "");
      expect(facets).toEqual([["categories:fabric"], ["project_type:mod"], ["versions:1.20.1"]]);
    });

    it("installs a version with its required dependency: both files land in the template's folder", async () => {
      const versions = await s.user.get(
        `/api/servers/${ids.fabric}/mods/versions?source=modrinth&projectId=mOgUt4GM`,
      );
      expect(versions.body).toEqual([
        { versionId: "MMenu722", versionNumber: "7.2.2", file: "modmenu-7.2.2.jar" },
      ]);
      const res = await s.user.post(`/api/servers/${ids.fabric}/mods`, {
        source: "modrinth",
        projectId: "mOgUt4GM",
        versionId: "MMenu722",
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.files).toEqual(["modmenu-7.2.2.jar", "fabric-api-0.92.0+1.20.1.jar"]);
      expect(fs.readdirSync(folder).sort()).toEqual(["fabric-api-0.92.0+1.20.1.jar", "modmenu-7.2.2.jar"]);
      expect(fs.readFileSync(path.join(folder, "modmenu-7.2.2.jar"))).toEqual(jarBytes("modmenu-7.2.2.jar"));
    });

    it("refuses a file whose hash does not match its source's, and leaves nothing (not the good file beside it)", async () => {
      const before = fs.readdirSync(folder).sort();
      const downloads = s.standin.downloads.length;
      const res = await s.user.post(`/api/servers/${ids.fabric}/mods`, {
        source: "modrinth",
        projectId: "UsesBr01",
        versionId: "UsesBr10",
      });
      expectError(res, 422, "ErrModHashMismatch", { file: "broken-lib-1.0.jar" });
      // Both were fetched; the dependency was found not to be what the source said, so neither stays.
      expect(s.standin.downloads.slice(downloads)).toEqual(["uses-broken-1.0.jar", "broken-lib-1.0.jar"]);
      expect(fs.readdirSync(folder).sort()).toEqual(before);
    });

    it("lists the files, recognised by hash (one placed by hand too), with an update shown", async () => {
      fs.writeFileSync(path.join(folder, "placed-by-hand.jar"), jarBytes("fabric-api-0.90.0+1.20.1.jar"));
      fs.writeFileSync(path.join(folder, "unknown.jar"), "not from any source");
      const res = await s.user.get(`/api/servers/${ids.fabric}/mods`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.target).toEqual({
        game: "minecraft",
        loader: "fabric",
        version: "1.20.1",
        folder: "mods",
        kind: "mods",
      });
      const byFile = Object.fromEntries(res.body.installed.map((m: { file: string }) => [m.file, m]));
      expect(Object.keys(byFile).sort()).toEqual([
        "fabric-api-0.92.0+1.20.1.jar",
        "modmenu-7.2.2.jar",
        "placed-by-hand.jar",
        "unknown.jar",
      ]);
      expect(byFile["placed-by-hand.jar"]).toMatchObject({
        source: "modrinth",
        projectId: "P7dR8mSH",
        versionId: "Fapi0900",
        title: "Fabric API",
        versionNumber: "0.90.0+1.20.1",
        update: { versionId: "Fapi0920", versionNumber: "0.92.0+1.20.1" },
      });
      expect(byFile["fabric-api-0.92.0+1.20.1.jar"].update).toBeUndefined();
      expect(byFile["modmenu-7.2.2.jar"]).toMatchObject({ title: "Mod Menu", versionId: "MMenu722" });
      expect(byFile["unknown.jar"]).toEqual({ file: "unknown.jar", size: 19 });
    });

    it("removes a file from the folder, and only from there", async () => {
      expect((await s.user.delete(`/api/servers/${ids.fabric}/mods/placed-by-hand.jar`)).status).toBe(204);
      expect(fs.existsSync(path.join(folder, "placed-by-hand.jar"))).toBe(false);
      expectError(
        await s.user.delete(`/api/servers/${ids.fabric}/mods/placed-by-hand.jar`),
        404,
        "ErrFileNotFound",
      );
      expect((await s.user.delete(`/api/servers/${ids.fabric}/mods/..%2Fserver.jar`)).status).toBe(400);
    });

    it("searches Hangar for a Paper server and installs a plugin with the library it needs (sha256 checked)", async () => {
      const found = await s.user.get(`/api/servers/${ids.paper}/mods/search?source=hangar&q=chat`);
      expect(found.status, found.text).toBe(200);
      expect(found.body).toMatchObject({ loader: "paper", version: "1.20.4" });
      expect(found.body.hits).toEqual([
        expect.objectContaining({ projectId: "ChatPlus", author: "paperdev", downloads: 1200 }),
      ]);
      const asked = s.standin.requests.filter((r) => r.startsWith("GET /hangar/api/v1/projects?")).at(-1);
      expect(asked).toContain("platform=PAPER");
      expect(asked).toContain("version=1.20.4");
      const res = await s.user.post(`/api/servers/${ids.paper}/mods`, {
        source: "hangar",
        projectId: "ChatPlus",
        versionId: "2.1.0",
      });
      expect(res.status, res.text).toBe(200);
      const plugins = path.join(s.dataDir(), "servers", ids.paper, "plugins");
      expect(fs.readdirSync(plugins).sort()).toEqual(["ChatPlus-2.1.0.jar", "CoreLib-1.4.0.jar"]);
      // Hangar is for plugins: a Fabric server is not offered it.
      expectError(
        await s.user.get(`/api/servers/${ids.fabric}/mods/search?source=hangar&q=chat`),
        400,
        "ErrModSourceNotOffered",
        { source: "hangar", reason: "loader" },
      );
    });

    it("records each install and removal in the server's activity log", async () => {
      const log = await s.admin.get(`/api/servers/${ids.fabric}/activity?limit=100`);
      expect(log.status, log.text).toBe(200);
      const entries = JSON.stringify(log.body);
      expect(entries).toContain("mod.install");
      expect(entries).toContain("MMenu722");
      expect(entries).toContain("mod.remove");
      expect(entries).toContain("placed-by-hand.jar");
    });
  });
}

interface Setup {
  admin: Client;
  user: Client;
  userEmail: string;
  standin: ModStandin;
  node: () => number;
  dataDir: () => string;
}

describe("mods and plugins", () => {
  const panel = usePanel();
  const account = newUser("modder");
  let admin: Client;
  let user: Client;
  let standin: ModStandin;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;

  beforeAll(async () => {
    standin = await startModStandin();
    admin = await adminClient(panel());
    for (const [key, value] of [
      ["panel.mods.modrinthUrl", `${standin.url}/modrinth`],
      ["panel.mods.hangarUrl", `${standin.url}/hangar/`],
    ]) {
      expect((await admin.put(`/api/settings/${key}`, { value })).status).toBe(204);
    }
    user = await registeredClient(panel(), account);
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "mods-remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
    await standin?.close();
  });

  const base = () => ({ admin, user, userEmail: account.email, standin });
  modsOn("the local node", { fabric: "d0d00001", paper: "d0d00002" }, () => ({
    ...base(),
    node: () => 0,
    dataDir: () => path.join(panel().dataDir, "node"),
  }));
  modsOn("a remote node", { fabric: "d0d00003", paper: "d0d00004" }, () => ({
    ...base(),
    node: () => remoteNode,
    dataDir: () => daemon?.config.dataDir ?? "",
  }));

  it("refuses without server.mods.view or server.mods.edit", async () => {
    const id = "d0d00001";
    const grant = (scopes: string[]) =>
      admin.put(`/api/servers/${id}/user/${encodeURIComponent(account.email)}`, { scopes });
    expect((await grant(["server.view"])).status).toBeLessThan(300);
    for (const call of [
      () => user.get(`/api/servers/${id}/mods`),
      () => user.get(`/api/servers/${id}/mods/search?source=modrinth&q=x`),
      () => user.get(`/api/servers/${id}/mods/versions?source=modrinth&projectId=x`),
    ])
      expectError(await call(), 403, "ErrMissingScope", { scope: "server.mods.view" });
    expect((await grant(["server.view", "server.mods.view"])).status).toBeLessThan(300);
    expect((await user.get(`/api/servers/${id}/mods`)).status).toBe(200);
    expectError(
      await user.post(`/api/servers/${id}/mods`, {
        source: "modrinth",
        projectId: "P7dR8mSH",
        versionId: "Fapi0920",
      }),
      403,
      "ErrMissingScope",
      { scope: "server.mods.edit" },
    );
    expectError(await user.delete(`/api/servers/${id}/mods/modmenu-7.2.2.jar`), 403, "ErrMissingScope", {
      scope: "server.mods.edit",
    });
    expect((await grant(modScopes)).status).toBeLessThan(300);
  });

  it("says a server whose template names no mods takes none", async () => {
    const made = await admin.put("/api/servers/d0d00009", { ...echoDefinition(), name: "plain", node: 0 });
    expect(made.status, made.text).toBe(200);
    expectError(await admin.get("/api/servers/d0d00009/mods"), 409, "ErrModsNotOffered", { field: "mods" });
  });

  it("hides CurseForge until an administrator sets its key, which is stored sealed and never answered", async () => {
    const sources = async () => (await user.get("/api/servers/d0d00001/mods")).body.sources;
    expect(await sources()).toContainEqual({ id: "curseforge", available: false, reason: "key" });
    expectError(
      await user.get("/api/servers/d0d00001/mods/search?source=curseforge&q=x"),
      400,
      "ErrModSourceNotOffered",
      { source: "curseforge", reason: "key" },
    );
    expect((await admin.put("/api/settings/panel.mods.curseforgeKey", { value: "cf-key-123" })).status).toBe(
      204,
    );
    expect((await admin.get("/api/settings/panel.mods.curseforgeKey")).body).toEqual({
      value: "",
      isSet: true,
    });
    const stored = String(await storedSetting(panel(), "panel.mods.curseforgeKey"));
    expect(stored).not.toContain("cf-key-123");
    expect(panelSecretBox(panel()).open(stored)).toBe("cf-key-123");
    expect(await sources()).toContainEqual({ id: "curseforge", available: true });
    expect((await admin.post("/api/settings", { "panel.mods.curseforgeKey": null })).status).toBe(204);
    expect(await sources()).toContainEqual({ id: "curseforge", available: false, reason: "key" });
    expectError(
      await admin.put("/api/settings/panel.mods.modrinthUrl", { value: "ftp://x" }),
      400,
      "ErrSettingInvalid",
    );
  });
});
