import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readRepo } from "../../../server/panel/templates/repo-reader.ts";
import { editConfigText, loadYaml, parseDocumentText } from "../../../server/templates/index.ts";

// YAML is read synchronously once js-yaml is loaded (server/templates/yaml.ts).
beforeAll(loadYaml);

/** The audit's shape: nine aliases a level, so a 1.3 KB egg stands for 9^levels values. */
function aliasBomb(levels: number): string {
  let text = "x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (let i = 1; i <= levels; i++)
    text += `x${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(", ")}]\n`;
  return text;
}

const bombEgg = `${aliasBomb(9)}meta:
  version: PLCN_v3
name: Bomb
author: someone@example.com
startup: ./run
docker_images:
  base: ghcr.io/example/base
config:
  files:
    server.yml:
      parser: yaml
      find:
        motd: *a9
`;

describe("documents from users, imports and repositories are bounded", () => {
  it("refuses a YAML alias bomb instead of expanding it (it parsed as ok before)", () => {
    expect(bombEgg.length).toBeLessThan(1500);
    const read = parseDocumentText(bombEgg);
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.problem).toMatch(/too big: it expands to more than 100000 values/);
  });

  it("refuses a document nested deeper than 64 levels, in JSON and in YAML", () => {
    const json = `${"[".repeat(80)}1${"]".repeat(80)}`;
    const deepJson = parseDocumentText(json);
    expect(deepJson.ok ? "" : deepJson.problem).toMatch(/nests deeper than 64 levels/);
    const yaml = `a: ${"[".repeat(80)}1${"]".repeat(80)}`;
    const deepYaml = parseDocumentText(yaml);
    expect(deepYaml.ok ? "" : deepYaml.problem).toMatch(/nests deeper than 64 levels/);
  });

  it("refuses a text over 4 MiB before parsing it", () => {
    const read = parseDocumentText(`{"a": "${"x".repeat(4 * 1024 * 1024)}"}`);
    expect(read.ok ? "" : read.problem).toMatch(/too big: it is larger than 4 MiB/);
  });

  it("keeps reading a document with a few aliases, as real eggs use them", () => {
    const read = parseDocumentText("base: &b {memory: 1024}\nsmall: *b\nlarge: {<<: *b, memory: 4096}\n");
    expect(read).toEqual({
      ok: true,
      document: { base: { memory: 1024 }, small: { memory: 1024 }, large: { memory: 4096 } },
    });
  });

  it("names the file of a repository that holds a bomb, and still reads the rest", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-bomb-repo-"));
    try {
      // A repository's templates sit in its top-level folders.
      fs.mkdirSync(path.join(dir, "games"));
      fs.writeFileSync(path.join(dir, "games", "bomb.yaml"), bombEgg);
      fs.writeFileSync(
        path.join(dir, "games", "fine.json"),
        JSON.stringify({ type: "generic", display: "Fine", run: { command: "./run" } }),
      );
      const { templates, problems } = await readRepo(dir);
      expect(problems.join("\n")).toMatch(/games\/bomb\.yaml: too big: it expands/);
      expect(templates.map((t) => t.name)).toContain("fine");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a bomb a server's user planted in a config file an egg edits before each start", () => {
    // The node edits the file on its own event loop (the panel's, for the local node), and an egg's
    // `*` path walks every copy an alias stands for.
    expect(() => editConfigText("yaml", aliasBomb(9), { "server.motd": "hi" })).toThrow(
      /expands to more than/,
    );
    expect(editConfigText("yaml", "server:\n  motd: old\n", { "server.motd": "hi" })).toBe(
      "server:\n  motd: hi\n",
    );
  });
});
