import { describe, expect, it } from "vitest";
import { loadYaml, parseDocumentText } from "../../../server/templates/index.ts";
import { YamlNotLoaded } from "../../../server/templates/yaml.ts";

// js-yaml loads on first use (an idle panel reads no YAML): JSON needs none of it, and YAML read
// before loadYaml() is a caller's mistake that fails loudly, not a document "neither JSON nor YAML".
describe("YAML on first use", () => {
  it("reads JSON without js-yaml, refuses YAML until it is loaded, then reads it", async () => {
    expect(parseDocumentText('{"name": "x"}')).toEqual({ ok: true, document: { name: "x" } });
    expect(() => parseDocumentText("name: x\n")).toThrow(YamlNotLoaded);
    await loadYaml();
    expect(parseDocumentText("name: x\n")).toEqual({ ok: true, document: { name: "x" } });
    expect(parseDocumentText("name: [x\n")).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^neither JSON nor YAML/),
    });
  });
});
