import fs from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { checkDocument, documentFiles, templateCheck } from "../../../server/cli/template-check.ts";
import { importTemplate, loadYaml, parseDocumentText } from "../../../server/templates/index.ts";
import { loadSchema } from "./corpus.ts";

// YAML is read synchronously once js-yaml is loaded (server/templates/yaml.ts).
beforeAll(loadYaml);

/**
 * Both egg corpora (tests/fixtures/pelican-eggs, see its SOURCE.txt): at least 98 % convert,
 * parse, render their run command, and validate against the v3 schema; every failure names its
 * reason. The figure is in docs/templates.md.
 */
const eggFolder = path.resolve(import.meta.dirname, "../../fixtures/pelican-eggs");
const validateSchema = new Ajv2020({ strict: false, allErrors: true }).compile(loadSchema());

/** The v3 part of a converted egg: `egg`, `backup` and `mods` (like `limits`) are Outpost additions the v3 schema does not know. */
function v3Part(document: unknown): unknown {
  const { egg: _egg, backup: _backup, mods: _mods, ...rest } = document as Record<string, unknown>;
  return rest;
}

describe("the egg corpus", () => {
  const files = documentFiles(eggFolder);

  it("holds both repositories, JSON and YAML", () => {
    expect(files.length).toBe(517);
    expect(files.filter((file) => file.endsWith(".yaml")).length).toBe(24);
  });

  it("converts and validates at least 98 %, and names the reason of each failure", () => {
    const results = files.map((file) => checkDocument(file, fs.readFileSync(file, "utf8")));
    const failed = results.filter((result) => !result.ok);
    for (const result of failed) expect(result.detail).toMatch(/\S+: \S+/);
    const share = (results.length - failed.length) / results.length;
    expect(share).toBeGreaterThanOrEqual(0.98);
    // docs/templates.md states this figure; change both together.
    expect(`${results.length - failed.length} of ${results.length}`).toBe("514 of 517");
  });

  it("gives documents the v3 schema accepts", () => {
    const invalid: string[] = [];
    for (const file of files) {
      const read = parseDocumentText(fs.readFileSync(file, "utf8"));
      if (!read.ok) continue;
      const result = importTemplate(read.document);
      if (!result.ok) continue;
      if (!validateSchema(v3Part(result.template)))
        invalid.push(`${file}: ${JSON.stringify(validateSchema.errors)}`);
    }
    expect(invalid).toEqual([]);
  });
});

describe("outpost template check", () => {
  it("prints one line per file and a total, and says whether all passed", () => {
    const lines: string[] = [];
    const folder = path.join(eggFolder, "games-steamcmd-2026/dayz");
    const ok = templateCheck([folder], (line) => lines.push(line));
    expect(ok).toBe(false);
    const dayz = documentFiles(folder);
    expect(lines).toHaveLength(dayz.length + 1);
    expect(lines.at(-1)).toMatch(new RegExp(`^\\d+ of ${dayz.length} files convert and validate`));
    expect(lines.find((line) => line.includes("egg-day-z.json"))).toMatch(
      /^FAIL .*run command does not render: variable STARTUP_PARAMS: may not start with - or \+/,
    );
  });

  it("passes a v3 template and a YAML egg", () => {
    const lines: string[] = [];
    const yaml = path.join(eggFolder, "games-steamcmd-2026/wreckfest_2/egg-wreckfest2.yaml");
    const v3 = path.resolve(eggFolder, "../pufferpanel-templates/terraria-vanilla/terraria-vanilla.json");
    expect(templateCheck([yaml, v3], (line) => lines.push(line))).toBe(true);
    expect(lines).toEqual([
      `ok   ${yaml}: egg PLCN_v3`,
      `ok   ${v3}: template`,
      "2 of 2 files convert and validate (100.0 %)",
    ]);
  });
});
