import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  importTemplate,
  parseDocumentText,
  parseTemplate,
  variableValues,
} from "../../../server/templates/index.ts";
import { modlauncherMods, resolveMods } from "../../../server/templates/mods.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const minimal = { type: "t", run: { command: "x" }, environment: { type: "host" } };

/** Issue 37: a template's `mods` field, read, checked, filled in for a server, and from an egg. */
describe("a template's mods field", () => {
  it("reads the four values, with ${variable} kept for the server", () => {
    const read = parseTemplate({
      ...minimal,
      mods: { game: "minecraft", loader: "fabric", version: "${mc}", folder: "mods" },
    });
    expect(read.ok && read.template.mods).toEqual({
      game: "minecraft",
      loader: "fabric",
      version: "${mc}",
      folder: "mods",
    });
  });

  it("names each wrong value: an unknown game or loader, a folder leading out, a missing field", () => {
    const read = parseTemplate({
      ...minimal,
      mods: { game: "terraria", loader: "bogus", version: "1.20.1", folder: "../up" },
    });
    expect(read.ok).toBe(false);
    const paths = read.ok ? [] : read.problems.map((p) => p.path);
    expect(paths).toEqual(["mods.game", "mods.loader", "mods.folder"]);
    const missing = parseTemplate({ ...minimal, mods: { game: "minecraft", loader: "paper" } });
    expect(missing.ok ? [] : missing.problems.map((p) => p.path)).toEqual(["mods.version", "mods.folder"]);
    expect(parseTemplate({ ...minimal, mods: "fabric" }).ok).toBe(false);
  });

  it("is filled in from the server's values and checked again; latest means no version filter", () => {
    const config = { game: "minecraft", loader: "${loader}", version: "${version}", folder: "${dir}" };
    expect(resolveMods(config, { loader: "Paper", version: "1.21.4", dir: "plugins" })).toEqual({
      ok: true,
      mods: { game: "minecraft", loader: "paper", version: "1.21.4", folder: "plugins", kind: "plugins" },
    });
    const latest = resolveMods(config, { loader: "fabric", version: "latest", dir: "mods" });
    expect(latest.ok && latest.mods).toMatchObject({ version: "", kind: "mods" });
    expect(resolveMods(config, { loader: "fabric", version: "1.20", dir: "/etc" })).toMatchObject({
      ok: false,
      field: "mods.folder",
    });
    expect(resolveMods(config, { version: "1.20", dir: "mods" })).toMatchObject({
      ok: false,
      field: "mods.loader",
    });
  });

  it("is filled in by an egg import where the egg names its loader and game version", () => {
    const egg = (relative: string) => {
      const file = path.join(
        root,
        "tests/fixtures/pelican-eggs/parkervcp-eggs-2024/game_eggs/minecraft/java",
        relative,
      );
      const read = parseDocumentText(fs.readFileSync(file, "utf8"));
      if (!read.ok) throw new Error(`${relative} does not read`);
      const imported = importTemplate(read.document);
      if (!imported.ok) throw new Error(`${relative} does not import`);
      return imported.template.mods;
    };
    expect(egg("paper/egg-paper.json")).toEqual({
      game: "minecraft",
      loader: "paper",
      version: "${MINECRAFT_VERSION}",
      folder: "plugins",
    });
    expect(egg("fabric/egg-fabric.json")).toEqual({
      game: "minecraft",
      loader: "fabric",
      version: "${MC_VERSION}",
      folder: "mods",
    });
    expect(egg("forge/forge/egg-forge-enhanced.json")).toMatchObject({ loader: "forge", folder: "mods" });
    // A modpack egg names no one loader: nothing is guessed.
    expect(egg("curseforge/egg-curse-forge-generic.json")).toBeUndefined();
  });

  it("is set on the starter Minecraft template: data packs for the vanilla server", () => {
    const text = fs.readFileSync(
      path.join(root, "starter-templates/minecraft-java/minecraft-java.json"),
      "utf8",
    );
    const read = parseTemplate(JSON.parse(text));
    expect(read.ok && read.template.mods).toEqual({
      game: "minecraft",
      loader: "datapack",
      version: "${version}",
      folder: "world/datapacks",
    });
  });

  it("is read from the corpus's PufferPanel Minecraft template: its modlauncher and version variables", () => {
    const file = path.join(root, "tests/fixtures/pufferpanel-templates/minecraft/minecraft.json");
    const read = parseTemplate(JSON.parse(fs.readFileSync(file, "utf8")));
    if (!read.ok) throw new Error("the corpus's Minecraft template does not read");
    const { template } = read;
    expect(template.mods).toBeUndefined();
    const withLauncher = (modlauncher: string) =>
      modlauncherMods(template.type, { ...variableValues(template.data), modlauncher, version: "1.20.1" });
    expect(withLauncher("fabric")).toEqual({
      game: "minecraft",
      loader: "fabric",
      version: "${version}",
      folder: "mods",
    });
    expect(withLauncher("paper")).toMatchObject({ loader: "paper", folder: "plugins" });
    // Vanilla ("None/Vanilla", its default) takes data packs.
    expect(withLauncher("")).toMatchObject({ loader: "datapack", folder: "world/datapacks" });
    expect(withLauncher("something-else")).toBeUndefined();
    // Another type, or a template without the variable, gets none.
    expect(modlauncherMods("minecraft-bedrock", { modlauncher: "fabric", version: "1" })).toBeUndefined();
    expect(modlauncherMods("minecraft-java", { version: "1.20.1" })).toBeUndefined();
  });
});
