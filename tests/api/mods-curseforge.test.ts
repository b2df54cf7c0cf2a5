import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { curseFiles, curseforgeStandinKey } from "../support/curseforge-standin.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { type ModStandin, startModStandin } from "../support/mod-sources-standin.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

/**
 * CurseForge as a mod source (issue 37), and files recognised by CurseForge's fingerprint and
 * Hangar's SHA-256, through a real panel and both kinds of node. The sources are a STAND-IN on
 * 127.0.0.1 (tests/support/curseforge-standin.ts, mod-sources-standin.ts): it answers in
 * CurseForge's shapes only with the key the administrator set, and serves jars of its own.
 */

const cfBytes = (name: string) => {
  const found = curseFiles.find((f) => f.name === name);
  if (!found) throw new Error(`no stand-in file ${name}`);
  return found.bytes;
};
/** The Hangar stand-in's jars are named by their file: the same bytes as it serves. */
const hangarBytes = (name: string) => Buffer.from(`PK\u0003\u0004 stand-in jar for tests: ${name}\n`);

const scopes = ["server.view", "server.mods.view", "server.mods.edit"];

interface Setup {
  admin: Client;
  user: Client;
  email: string;
  standin: ModStandin;
  node: number;
  dataDir: string;
}

function curseforgeOn(label: string, ids: { fabric: string; paper: string }, setup: () => Setup) {
  describe(`CurseForge and recognition on ${label}`, () => {
    let s: Setup;
    let folder: string;
    beforeAll(async () => {
      s = setup();
      const definitions = {
        [ids.fabric]: { game: "minecraft", loader: "fabric", version: "1.20.1", folder: "mods" },
        [ids.paper]: { game: "minecraft", loader: "paper", version: "1.20.4", folder: "plugins" },
      };
      for (const [id, mods] of Object.entries(definitions)) {
        const made = await s.admin.put(`/api/servers/${id}`, {
          ...echoDefinition({ type: "minecraft-java", mods }),
          name: id,
          node: s.node,
        });
        expect(made.status, made.text).toBe(200);
        const granted = await s.admin.put(`/api/servers/${id}/user/${encodeURIComponent(s.email)}`, {
          scopes,
        });
        expect(granted.status, granted.text).toBeLessThan(300);
      }
      folder = path.join(s.dataDir, "servers", ids.fabric, "mods");
    });

    it("searches CurseForge with its key, the server's loader and game version filled in", async () => {
      const res = await s.user.get(`/api/servers/${ids.fabric}/mods/search?source=curseforge&q=a`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ source: "curseforge", loader: "fabric", version: "1.20.1" });
      // The stand-in also has a Forge-only mod: the loader filter left it out.
      expect(res.body.hits.map((h: { title: string }) => h.title)).toEqual([
        "Fabric API",
        "Jade",
        "Bad Lib",
        "Uses Bad Lib",
      ]);
      expect(res.body.hits[1]).toMatchObject({
        projectId: "238222",
        author: "Snownee",
        downloads: 90_000_000,
      });
      const asked = new URL(
        (s.standin.requests.filter((r) => r.startsWith("GET /curseforge/v1/mods/search")).at(-1) ?? "").slice(
          4,
        ),
        "http://x",
      ).searchParams;
      expect(Object.fromEntries(asked)).toMatchObject({
        gameId: "432",
        classId: "6",
        searchFilter: "a",
        gameVersion: "1.20.1",
        modLoaderType: "4",
      });
    });

    it("installs a file with its required dependency, each checked against CurseForge's sha1", async () => {
      const versions = await s.user.get(
        `/api/servers/${ids.fabric}/mods/versions?source=curseforge&projectId=238222`,
      );
      expect(versions.body).toEqual([
        {
          versionId: "5101",
          versionNumber: "Jade-1.20.1-fabric-11.6.3",
          file: "Jade-1.20.1-fabric-11.6.3.jar",
        },
      ]);
      const res = await s.user.post(`/api/servers/${ids.fabric}/mods`, {
        source: "curseforge",
        projectId: "238222",
        versionId: "5101",
      });
      expect(res.status, res.text).toBe(200);
      // The dependency names no file: its newest one for this loader and version came.
      expect(res.body.files).toEqual(["Jade-1.20.1-fabric-11.6.3.jar", "cf-fabric-api-0.92.2.jar"]);
      expect(fs.readdirSync(folder).sort()).toEqual([
        "Jade-1.20.1-fabric-11.6.3.jar",
        "cf-fabric-api-0.92.2.jar",
      ]);
      expect(fs.readFileSync(path.join(folder, "cf-fabric-api-0.92.2.jar"))).toEqual(
        cfBytes("cf-fabric-api-0.92.2.jar"),
      );
    });

    it("refuses a dependency whose sha1 is not CurseForge's, and leaves nothing behind", async () => {
      const before = fs.readdirSync(folder).sort();
      const downloads = s.standin.downloads.length;
      const res = await s.user.post(`/api/servers/${ids.fabric}/mods`, {
        source: "curseforge",
        projectId: "777002",
        versionId: "5202",
      });
      expectError(res, 422, "ErrModHashMismatch", { file: "bad-lib-1.0.jar" });
      expect(s.standin.downloads.slice(downloads)).toEqual(["uses-bad-lib-1.0.jar", "bad-lib-1.0.jar"]);
      expect(fs.readdirSync(folder).sort()).toEqual(before);
    });

    it("recognises CurseForge's files by fingerprint, one placed by hand, with an update shown", async () => {
      fs.writeFileSync(path.join(folder, "by-hand.jar"), cfBytes("cf-fabric-api-0.91.0.jar"));
      const res = await s.user.get(`/api/servers/${ids.fabric}/mods`);
      expect(res.status, res.text).toBe(200);
      const byFile = Object.fromEntries(res.body.installed.map((m: { file: string }) => [m.file, m]));
      expect(byFile["by-hand.jar"]).toEqual({
        file: "by-hand.jar",
        size: cfBytes("cf-fabric-api-0.91.0.jar").length,
        source: "curseforge",
        projectId: "306612",
        versionId: "5001",
        versionNumber: "cf-fabric-api-0.91.0",
        title: "Fabric API",
        update: { versionId: "5002", versionNumber: "cf-fabric-api-0.92.2" },
      });
      expect(byFile["Jade-1.20.1-fabric-11.6.3.jar"]).toMatchObject({ source: "curseforge", title: "Jade" });
      expect(byFile["Jade-1.20.1-fabric-11.6.3.jar"].update).toBeUndefined();
      expect(res.body.unreachable).toEqual([]);
      expect(s.standin.requests).toContain("POST /curseforge/v1/fingerprints/432");
    });

    it("recognises Hangar's plugins by SHA-256, placed by hand, with an update shown", async () => {
      const plugins = path.join(s.dataDir, "servers", ids.paper, "plugins");
      fs.mkdirSync(plugins, { recursive: true });
      fs.writeFileSync(path.join(plugins, "old-corelib.jar"), hangarBytes("CoreLib-1.3.0.jar"));
      fs.writeFileSync(path.join(plugins, "chat.jar"), hangarBytes("ChatPlus-2.1.0.jar"));
      fs.writeFileSync(path.join(plugins, "mine.jar"), "a plugin of the server's own");
      const res = await s.user.get(`/api/servers/${ids.paper}/mods`);
      expect(res.status, res.text).toBe(200);
      const byFile = Object.fromEntries(res.body.installed.map((m: { file: string }) => [m.file, m]));
      expect(byFile["old-corelib.jar"]).toMatchObject({
        source: "hangar",
        projectId: "CoreLib",
        title: "CoreLib",
        versionId: "1.3.0",
        versionNumber: "1.3.0",
        update: { versionId: "1.4.0", versionNumber: "1.4.0" },
      });
      expect(byFile["chat.jar"]).toMatchObject({
        source: "hangar",
        projectId: "ChatPlus",
        versionId: "2.1.0",
      });
      expect(byFile["chat.jar"].update).toBeUndefined();
      expect(byFile["mine.jar"]).toEqual({ file: "mine.jar", size: 28 });
    });

    it("records the CurseForge install in the server's activity log", async () => {
      const log = await s.admin.get(`/api/servers/${ids.fabric}/activity?limit=100`);
      expect(log.status, log.text).toBe(200);
      const entries = JSON.stringify(log.body);
      expect(entries).toContain("mod.install");
      expect(entries).toContain("238222");
    });
  });
}

describe("CurseForge as a mod source", () => {
  const panel = usePanel();
  const account = newUser("cfmodder");
  let admin: Client;
  let user: Client;
  let standin: ModStandin;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;

  beforeAll(async () => {
    standin = await startModStandin();
    admin = await adminClient(panel());
    for (const [key, value] of [
      ["panel.mods.curseforgeUrl", `${standin.url}/curseforge`],
      ["panel.mods.curseforgeKey", curseforgeStandinKey],
      ["panel.mods.hangarUrl", `${standin.url}/hangar`],
      ["panel.mods.modrinthUrl", `${standin.url}/modrinth`],
    ]) {
      expect((await admin.put(`/api/settings/${key}`, { value })).status).toBe(204);
    }
    user = await registeredClient(panel(), account);
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "curseforge-remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
    await standin?.close();
  });

  const base = () => ({ admin, user, email: account.email, standin });
  curseforgeOn("the local node", { fabric: "c0f00001", paper: "c0f00002" }, () => ({
    ...base(),
    node: 0,
    dataDir: path.join(panel().dataDir, "node"),
  }));
  curseforgeOn("a remote node", { fabric: "c0f00003", paper: "c0f00004" }, () => ({
    ...base(),
    node: remoteNode,
    dataDir: daemon?.config.dataDir ?? "",
  }));

  it("says CurseForge could not be asked when it refuses the key, and lists the files all the same", async () => {
    expect((await admin.put("/api/settings/panel.mods.curseforgeKey", { value: "wrong-key" })).status).toBe(
      204,
    );
    try {
      expectError(
        await user.get("/api/servers/c0f00001/mods/search?source=curseforge&q=jade"),
        502,
        "ErrModSourceUnavailable",
        { source: "curseforge" },
      );
      const listed = await user.get("/api/servers/c0f00001/mods");
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.unreachable).toEqual(["curseforge"]);
      expect(
        listed.body.installed.find((m: { file: string }) => m.file === "by-hand.jar").source,
      ).toBeUndefined();
    } finally {
      await admin.put("/api/settings/panel.mods.curseforgeKey", { value: curseforgeStandinKey });
    }
  });

  it("offers no source an administrator turned off, and refuses to search it", async () => {
    const sources = async () => (await user.get("/api/servers/c0f00001/mods")).body.sources;
    expect(await sources()).toContainEqual({ id: "curseforge", available: true });
    expect((await admin.put("/api/settings/panel.mods.curseforgeEnabled", { value: false })).status).toBe(
      204,
    );
    try {
      expect(await sources()).toContainEqual({ id: "curseforge", available: false, reason: "off" });
      expectError(
        await user.get("/api/servers/c0f00001/mods/search?source=curseforge&q=jade"),
        400,
        "ErrModSourceNotOffered",
        { source: "curseforge", reason: "off" },
      );
      // Turned off, it is not asked which files it knows either.
      const listed = await user.get("/api/servers/c0f00001/mods");
      expect(
        listed.body.installed.find((m: { file: string }) => m.file === "by-hand.jar").source,
      ).toBeUndefined();
      expect(await sources()).toContainEqual({ id: "modrinth", available: true });
    } finally {
      await admin.put("/api/settings/panel.mods.curseforgeEnabled", { value: true });
    }
    expect(await sources()).toContainEqual({ id: "curseforge", available: true });
  });

  it("offers mods for a server of PufferPanel's Minecraft template, by its modlauncher variable", async () => {
    const id = "c0f00009";
    const variable = (value: string) => ({ type: "string", value, display: "x", userEdit: true });
    const made = await admin.put(`/api/servers/${id}`, {
      ...echoDefinition({ type: "minecraft-java" }),
      data: { ...echoDefinition().data, modlauncher: variable("fabric"), version: variable("1.20.1") },
      name: "corpus-like",
      node: 0,
    });
    expect(made.status, made.text).toBe(200);
    const target = async () => (await admin.get(`/api/servers/${id}/mods`)).body.target;
    expect(await target()).toEqual({
      game: "minecraft",
      loader: "fabric",
      version: "1.20.1",
      folder: "mods",
      kind: "mods",
    });
    const changed = await admin.put(`/api/servers/${id}/data`, { data: { modlauncher: { value: "paper" } } });
    expect(changed.status, changed.text).toBeLessThan(300);
    expect(await target()).toMatchObject({ loader: "paper", folder: "plugins", kind: "plugins" });
  });

  it("refuses to install from CurseForge without server.mods.edit", async () => {
    const grant = (granted: string[]) =>
      admin.put(`/api/servers/c0f00001/user/${encodeURIComponent(account.email)}`, { scopes: granted });
    expect((await grant(["server.view", "server.mods.view"])).status).toBeLessThan(300);
    expectError(
      await user.post("/api/servers/c0f00001/mods", {
        source: "curseforge",
        projectId: "306612",
        versionId: "5001",
      }),
      403,
      "ErrMissingScope",
      { scope: "server.mods.edit" },
    );
    expect((await grant(scopes)).status).toBeLessThan(300);
  });
});
