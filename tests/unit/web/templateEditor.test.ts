import { describe, expect, it } from "vitest";
import { importTemplate } from "../../../server/templates/index.ts";
import {
  applyCommon,
  commandIsList,
  minimalTemplate,
  printDoc,
  readCommon,
  withoutPanelFields,
} from "../../../src/screens/templates/draft";
import { filterTemplates, TEMPLATE_NAME } from "../../../src/screens/templates/filter";
import { lineColumn, scanJson, spanOfPath } from "../../../src/screens/templates/jsonScan";
import { checkRepoForm, repoBody, repoFieldOfError } from "../../../src/screens/templates/repoForm";
import { stepSummary } from "../../../src/screens/templates/summaries";

describe("JSON scan: syntax errors where a person would look", () => {
  const cases: [string, string, number][] = [
    ['{"a": 1,}', "key", 8],
    ['{"a" 1}', "colon", 5],
    ['{"a": 1 "b": 2}', "objectEnd", 8],
    ["[1 2]", "arrayEnd", 3],
    ['{"a": tru}', "value", 6],
    ['{"a": "x', "stringEnd", 6],
    ['{"a": "\\q"}', "escape", 7],
    ['{"a": "\t"}', "control", 7],
    ['{"a": 01}', "number", 6],
    ['{"a": -}', "number", 6],
    ["{} x", "trailing", 3],
    ["", "value", 0],
  ];
  it.each(cases)("%j → %s at %i", (text, problem, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(scanJson(text).error).toEqual({ problem, offset });
  });

  it("accepts what JSON.parse accepts", () => {
    for (const text of [
      '{"a": [1, -2.5e+3, true, false, null, "x\\u00e9\\n"], "b": {}}',
      " [ ] ",
      '"\\/"',
      "0",
    ]) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(scanJson(text).error).toBeUndefined();
    }
  });

  it("gives lines and columns from 1", () => {
    const text = '{\n  "a": 1\n  "b": 2\n}';
    const { error } = scanJson(text);
    expect(error?.problem).toBe("objectEnd");
    expect(lineColumn(text, error!.offset)).toEqual({ line: 3, column: 3 });
  });
});

describe("JSON scan: problem paths to places", () => {
  const text = printDoc({
    run: { command: [{ if: "x", command: "a" }, { command: "b" }] },
    data: { "server-port": { value: 1 } },
  });
  const { spans } = scanJson(text);

  it("uses the template module's path notation", () => {
    const at = (p: string) => {
      const s = spans.get(p)!;
      return text.slice(s.start, s.end);
    };
    expect(at("run.command[1].command")).toBe('"b"');
    expect(at('data["server-port"].value')).toBe("1");
    expect(text.slice(spans.get("run.command[0].if")!.from).startsWith('"if"')).toBe(true);
  });

  it("falls back to the nearest parent for a missing field", () => {
    expect(spanOfPath(spans, "run.command[1].stdin.type")).toBe(spans.get("run.command[1]"));
    expect(spanOfPath(spans, 'data["server-port"].options[0]')).toBe(spans.get('data["server-port"]'));
    expect(spanOfPath(spans, "nothing.here")).toBe(spans.get(""));
  });
});

describe("editor document: common fields", () => {
  it("starts from the smallest valid template", () => {
    expect(importTemplate(minimalTemplate()).ok).toBe(true);
  });

  it("reads the common fields, numbers as text", () => {
    const doc = { display: "D", type: "t", run: { command: "go", stop: "stop", stopCode: 15 } };
    expect(readCommon(doc)).toEqual({
      display: "D",
      type: "t",
      icon: "",
      command: "go",
      stop: "stop",
      stopCode: "15",
    });
    expect(commandIsList({ run: { command: [] } })).toBe(true);
    expect(readCommon({ run: { command: [{ command: "x" }] } }).command).toBe("");
  });

  it("changes a value in place and keeps the rest of the text as typed", () => {
    const text = '{ "display": "Old",\n    "type":"t",  "run": {"command": "x"} }';
    const doc = JSON.parse(text);
    const next = applyCommon(text, doc, "display", 'New "one"');
    expect(next).toBe('{ "display": "New \\"one\\"",\n    "type":"t",  "run": {"command": "x"} }');
    expect(applyCommon(text, doc, "command", "run ${x}")).toContain('"run": {"command": "run ${x}"}');
  });

  it("adds and removes keys by printing the document again", () => {
    const text = '{"type":"t","run":{"command":"x"}}';
    const added = applyCommon(text, JSON.parse(text), "stopCode", "15");
    expect(JSON.parse(added)).toEqual({ type: "t", run: { command: "x", stopCode: 15 } });
    const removed = applyCommon(added, JSON.parse(added), "stopCode", "");
    expect(JSON.parse(removed)).toEqual({ type: "t", run: { command: "x" } });
    // Not a number: kept as typed, for the check to complain about.
    expect(JSON.parse(applyCommon(text, JSON.parse(text), "stopCode", "x")).run.stopCode).toBe("x");
    expect(JSON.parse(applyCommon(text, JSON.parse(text), "icon", "box")).icon).toBe("box");
  });

  it("drops the panel's own fields before saving", () => {
    expect(withoutPanelFields({ name: "n", readme: "r", id: "i", type: "t" })).toEqual({ type: "t" });
  });

  it("keeps an egg's name: it is the egg's display name, which the panel converts on save", () => {
    const egg = { meta: { version: "PTDL_v2" }, name: "Paper", startup: "java" };
    expect(withoutPanelFields(egg)).toEqual(egg);
  });
});

describe("template list search and names", () => {
  const list = [
    { name: "minecraft-java", display: "Minecraft: Java Edition" },
    { name: "terraria", display: "Terraria" },
    { name: "x" },
  ];
  it("matches name or display, ignoring case", () => {
    expect(filterTemplates(list, "JAVA").map((t) => t.name)).toEqual(["minecraft-java"]);
    expect(filterTemplates(list, "edition").map((t) => t.name)).toEqual(["minecraft-java"]);
    expect(filterTemplates(list, "  ")).toHaveLength(3);
  });
  it("accepts the local names the panel accepts", () => {
    expect(TEMPLATE_NAME.test("my_server-1.2")).toBe(true);
    expect(TEMPLATE_NAME.test("a/b")).toBe(false);
    expect(TEMPLATE_NAME.test("x".repeat(101))).toBe(false);
  });
});

describe("add-repository form", () => {
  it("checks like the panel", () => {
    expect(checkRepoForm({ name: "", url: "ftp://x", branch: "" })).toEqual({
      name: { code: "ErrFieldRequired" },
      url: { code: "ErrFieldInvalid" },
    });
    expect(checkRepoForm({ name: "LOCAL", url: "https://example.com/r.git", branch: "" }).name?.code).toBe(
      "ErrRepoExists",
    );
    expect(checkRepoForm({ name: "r", url: "http://127.0.0.1:1/a.tar.gz", branch: "" })).toEqual({});
  });
  it("sends the branch only when given, and maps refusals to fields", () => {
    expect(repoBody({ name: " r ", url: " u ", branch: " " })).toEqual({ name: "r", url: "u" });
    expect(repoFieldOfError("ErrRepoExists")).toBe("name");
    expect(repoFieldOfError("ErrFieldInvalid", { field: "url" })).toBe("url");
  });
});

describe("install step summary", () => {
  it("shows the kind and its simple fields", () => {
    expect(stepSummary({ type: "command", if: "x", commands: ["a", "b"], nested: { x: 1 } })).toEqual({
      type: "command",
      details: [["commands", "a, b"]],
    });
  });
});
