import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runOperations } from "../../../../server/daemon/install/index.ts";
import {
  fixtureServerForFile,
  installFailure,
  scratchEachTest,
  serverContext,
  sha1,
  tree,
  zipOf,
} from "./support.ts";

/**
 * The mrpack step (issue 37) against a loopback server that serves a Modrinth-format modpack and
 * the files its index lists (test fixtures, not Modrinth's). What it installs is checked on disk.
 */
const server = fixtureServerForFile();
const s = scratchEachTest();
const sha512 = (data: string) => createHash("sha512").update(data).digest("hex");

const modA = "mod a bytes";
const modB = "mod b bytes";

async function pack(files: unknown[], extra: { name: string; body: string }[] = []): Promise<Buffer> {
  return zipOf([
    {
      name: "modrinth.index.json",
      body: JSON.stringify({
        formatVersion: 1,
        game: "minecraft",
        versionId: "1.0.0",
        name: "Test Pack",
        files,
        dependencies: { minecraft: "1.20.1", "fabric-loader": "0.15.7" },
      }),
    },
    { name: "overrides/config/a.toml", body: "a = 1" },
    { name: "overrides/mods/bundled.jar", body: "bundled" },
    { name: "server-overrides/server.properties", body: "motd=pack" },
    { name: "client-overrides/options.txt", body: "client only" },
    ...extra,
  ]);
}

beforeAll(() => {
  server.routes.set("/files/a.jar", { body: modA });
  server.routes.set("/files/b.jar", { body: modB });
  server.routes.set("/files/client.jar", { body: "client mod" });
});

const run = (url: string) =>
  runOperations([{ type: "mrpack", url }], serverContext(s.root), s.env({ progressIntervalMs: 0 }));

describe("mrpack", () => {
  it("installs the files the index lists for servers, checked by hash, then the overrides", async () => {
    server.routes.set("/packs/good.mrpack", {
      body: await pack([
        {
          path: "mods/a.jar",
          hashes: { sha1: sha1(modA), sha512: sha512(modA) },
          env: { client: "required", server: "required" },
          downloads: [`${server.url}/files/a.jar`],
        },
        { path: "mods/b.jar", hashes: { sha512: sha512(modB) }, downloads: [`${server.url}/files/b.jar`] },
        {
          path: "mods/client.jar",
          hashes: { sha1: sha1("client mod") },
          env: { client: "required", server: "unsupported" },
          downloads: [`${server.url}/files/client.jar`],
        },
      ]),
    });
    await run(`${server.url}/packs/good.mrpack`);
    expect(tree(s.root)).toEqual([
      "config",
      "config/a.toml",
      "mods",
      "mods/a.jar",
      "mods/b.jar",
      "mods/bundled.jar",
      "server.properties",
    ]);
    expect(fs.readFileSync(path.join(s.root, "mods/a.jar"), "utf8")).toBe(modA);
    expect(fs.readFileSync(path.join(s.root, "server.properties"), "utf8")).toBe("motd=pack");
    expect(server.hits).not.toContain("/files/client.jar");
    expect(s.text()).toContain("Test Pack 1.0.0");
  });

  it("fails on a file whose hash differs, and leaves neither it nor the unpacked pack", async () => {
    server.routes.set("/packs/bad.mrpack", {
      body: await pack([
        { path: "mods/a.jar", hashes: { sha512: sha512("other") }, downloads: [`${server.url}/files/a.jar`] },
      ]),
    });
    const error = await installFailure(run(`${server.url}/packs/bad.mrpack`));
    expect(error.message).toContain("mods/a.jar");
    expect(tree(s.root).filter((f) => f.startsWith("mods/a.jar") || f.startsWith(".outpost"))).toEqual([]);
  });

  it("refuses a path that leads out of the server's folder", async () => {
    server.routes.set("/packs/escape.mrpack", {
      body: await pack([
        {
          path: "../outside/evil.jar",
          hashes: { sha1: sha1(modA) },
          downloads: [`${server.url}/files/a.jar`],
        },
      ]),
    });
    await installFailure(run(`${server.url}/packs/escape.mrpack`));
    expect(fs.readdirSync(s.outside)).toEqual(["keep.txt"]);
  });

  it("fetches the listed files from public addresses only, the pack's own host aside", async () => {
    server.routes.set("/packs/inside.mrpack", {
      body: await pack([
        { path: "mods/a.jar", hashes: { sha1: sha1(modA) }, downloads: ["http://10.255.255.1:9/a.jar"] },
      ]),
    });
    const error = await installFailure(run(`${server.url}/packs/inside.mrpack`));
    expect(error.message).toContain("mods/a.jar");
    expect(fs.existsSync(path.join(s.root, "mods/a.jar"))).toBe(false);
  });
});
