import { beforeAll, describe, expect, it } from "vitest";
import { editConfigText, loadYaml } from "../../../server/templates/index.ts";

// YAML is read synchronously once js-yaml is loaded (server/templates/yaml.ts).
beforeAll(loadYaml);

describe("egg config file edits", () => {
  it("properties: sets existing keys in place and adds missing ones", () => {
    expect(
      editConfigText("properties", "# comment\nserver-port=1\nmotd = old\n", {
        "server-port": "25565",
        motd: "Hi",
        "query.port": "25565",
      }),
    ).toBe("# comment\nserver-port=25565\nmotd=Hi\nquery.port=25565\n");
  });

  it("file: replaces whole lines that start with the key, adds nothing", () => {
    expect(
      editConfigText("file", "PORT=1\r\nNAME=x\r\n", { "PORT=": "PORT=7777", "MISSING=": "MISSING=1" }),
    ).toBe("PORT=7777\r\nNAME=x\r\n");
  });

  it("ini: section.key, keys before any section, new sections", () => {
    expect(
      editConfigText("ini", "top=1\n[Server]\nPort=1\n[Other]\nx=y\n", {
        top: "2",
        "Server.Port": "7777",
        "Server.Name": "A",
        "New.Key": "v",
      }),
    ).toBe("top=2\n[Server]\nPort=7777\nName=A\n[Other]\nx=y\n[New]\nKey=v\n");
  });

  it("json and yaml: dotted paths, list indexes and wildcards, typed values", () => {
    const json = editConfigText("json", '{"a":{"b":1},"list":[{"host":"x"},{"host":"y"}]}', {
      "a.b": "2",
      "a.c": "true",
      "list[*].host": "0.0.0.0",
      "new.deep": "text",
    });
    expect(JSON.parse(json)).toEqual({
      a: { b: 2, c: true },
      list: [{ host: "0.0.0.0" }, { host: "0.0.0.0" }],
      new: { deep: "text" },
    });
    expect(
      editConfigText("yaml", "listeners:\n  - host: 0.0.0.0:1\n", { "listeners[0].host": "0.0.0.0:25577" }),
    ).toBe("listeners:\n  - host: 0.0.0.0:25577\n");
    expect(JSON.parse(editConfigText("json", "", { "__proto__.x": "1", a: "1" }))).toEqual({ a: 1 });
  });

  it("xml: the text of the element at the path, escaped", () => {
    expect(
      editConfigText("xml", "<Config><Server><Port>1</Port><Name>x</Name></Server></Config>", {
        "Config.Server.Port": "7777",
        "Server.Name": "A & B",
      }),
    ).toBe("<Config><Server><Port>7777</Port><Name>A &amp; B</Name></Server></Config>");
  });
});
