import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentFiles } from "../../../server/cli/template-check.ts";
import { eggGameType } from "../../../server/templates/egg-game.ts";
import { importTemplate, parseDocumentText } from "../../../server/templates/index.ts";

const eggFolder = path.resolve(import.meta.dirname, "../../fixtures/pelican-eggs");

/** Issue 41: an imported egg's server type is its game, not "egg". */
describe("an imported egg's server type", () => {
  const typeOf = (relative: string) => {
    const file = path.join(eggFolder, relative);
    const read = parseDocumentText(fs.readFileSync(file, "utf8"));
    if (!read.ok) throw new Error(`${relative} does not read`);
    const imported = importTemplate(read.document);
    if (!imported.ok) throw new Error(`${relative} does not import`);
    return imported.template.type;
  };
  const find = (pattern: RegExp) => {
    const file = documentFiles(eggFolder).find((f) => pattern.test(f));
    if (!file) throw new Error(`no egg matches ${pattern}`);
    return path.relative(eggFolder, file);
  };

  it("is the game the corpus eggs run, as the server list's icons name games", () => {
    expect(typeOf(find(/minecraft\/java\/paper\/egg-paper\.json$/))).toBe("minecraft-java");
    expect(typeOf(find(/7_days_to_die\/.*\.json$/))).toBe("7days2die");
    expect(typeOf(find(/counter_strike\/.*\.json$/))).toBe("csgo");
    expect(typeOf(find(/ark_survival_evolved\/.*\.json$/))).toBe("ark");
    expect(typeOf(find(/dont_starve\/.*\.json$/))).toBe("dontstarvetogether");
  });

  it("falls back to the egg's own name, never an empty type", () => {
    expect(eggGameType("Among Us: Impostor", "", [])).toBe("among-us-impostor");
    expect(eggGameType("Velocity", "A Minecraft proxy", [])).toBe("minecraft-java");
    expect(eggGameType("Rust", "The survival game", ["ghcr.io/x/games:rust"])).toBe("rust");
    expect(eggGameType("", "", [])).toBe("egg");
    expect(eggGameType("Трактор", "", [])).toBe("egg");
  });
});
