import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { starterTextProblems } from "../../../scripts/i18n/starter-texts.ts";
import { localeOf } from "../../../server/panel/templates/starter-texts.ts";

const repo = path.resolve(import.meta.dirname, "../../..");
const starter = path.join(repo, "starter-templates");
const locales = path.join(repo, "locales");

describe("the starter templates' texts per locale", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-starter-texts-"));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("picks the locale an Accept-Language asks for, by preference, full tag then language", () => {
    const known = ["de_DE", "no_NO", "pt_BR", "pt_PT", "zh_TW", "sr_SP"];
    expect(localeOf("de-DE", known)).toBe("de_DE");
    expect(localeOf("de", known)).toBe("de_DE");
    expect(localeOf("fr-FR, pt-PT;q=0.5, pt-BR;q=0.9", known)).toBe("pt_BR");
    expect(localeOf("nb-NO", known)).toBe("no_NO");
    expect(localeOf("sr-RS", known)).toBe("sr_SP");
    expect(localeOf("en-US, de;q=0.5", known)).toBeUndefined();
    expect(localeOf("", known)).toBeUndefined();
    expect(localeOf(undefined, known)).toBeUndefined();
  });

  it("every locale's file is complete (what npm run i18n:check checks)", () => {
    for (const locale of fs.readdirSync(locales).filter((l) => l !== "en_US"))
      expect(starterTextProblems(locales, starter, locale), locale).toEqual([]);
  });

  it("a text missing, left in English, losing a literal, or stale is a problem", () => {
    const texts = JSON.parse(fs.readFileSync(path.join(locales, "de_DE", "starter-templates.json"), "utf8"));
    delete texts.openttd["port.desc"];
    texts.openttd["mapsize.display"] = "Map size";
    texts.terraria["version.desc"] = "Die Zahl im Namen, z. B. 1494";
    texts.factorio["gone.display"] = "Weg";
    fs.mkdirSync(path.join(work, "de_DE"));
    fs.writeFileSync(path.join(work, "de_DE", "starter-templates.json"), JSON.stringify(texts));
    expect(starterTextProblems(work, starter, "de_DE")).toEqual([
      "starter openttd/port.desc untranslated: Game port (TCP and UDP)",
      "starter openttd/mapsize.display still English: Map size",
      'starter terraria/version.desc lost "1449": Die Zahl im Namen, z. B. 1494',
      'starter terraria/version.desc lost "1.4.4.9": Die Zahl im Namen, z. B. 1494',
      "starter factorio/gone.display: no longer in the starter templates",
    ]);
    expect(starterTextProblems(work, starter, "fr_FR")).toEqual(["starter-templates.json missing"]);
  });
});
