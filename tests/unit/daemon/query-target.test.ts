import { describe, expect, it } from "vitest";
import { isQueryPortName, queryHost, queryTarget } from "../../../server/daemon/query/query-target.ts";
import { parseTemplate, type Template } from "../../../server/templates/index.ts";
import { loadTemplates, v3Folder } from "../templates/corpus.ts";

const corpus = loadTemplates(v3Folder);

/** A corpus template as the node holds it, with a query type added where the corpus has none. */
function corpusDefinition(name: string, query?: { type: string }): Template {
  const file = corpus.find((t) => t.name === name);
  if (!file) throw new Error(`${name} is not in the corpus`);
  const parsed = parseTemplate(query ? { ...(file.document as object), query } : file.document);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.template;
}

function definition(data: Record<string, string | number>, type = "openttd"): Template {
  const parsed = parseTemplate({
    type: "test",
    data: Object.fromEntries(
      Object.entries(data).map(([name, value]) => [
        name,
        { type: typeof value === "number" ? "integer" : "string", value },
      ]),
    ),
    run: { command: "true" },
    query: { type },
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.template;
}

describe("what the query asks", () => {
  it("asks the corpus's Minecraft template on loopback at its port variable", () => {
    expect(queryTarget(corpusDefinition("minecraft"))).toEqual({
      type: "minecraft",
      host: "127.0.0.1",
      port: 25565,
      queryPort: false,
    });
  });

  it("prefers a template's own query port variable, as the corpus names them", () => {
    // ARK calls it `queryport`, Squad `query_port`; neither template names a query type itself.
    expect(queryTarget(corpusDefinition("ark"))).toBeUndefined();
    expect(queryTarget(corpusDefinition("ark", { type: "ase" }))).toMatchObject({
      port: 27015,
      queryPort: true,
    });
    expect(queryTarget(corpusDefinition("squad", { type: "squad" }))).toMatchObject({
      port: 27165,
      queryPort: true,
    });
    expect(queryTarget(definition({ port: 2456, queryPort: "2457" }))).toMatchObject({
      port: 2457,
      queryPort: true,
    });
    expect(["queryport", "query_port", "queryPort", "QUERY-PORT"].every(isQueryPortName)).toBe(true);
    expect(["port", "qport", "rconport", "query"].some(isQueryPortName)).toBe(false);
  });

  it("falls back to the game port when the query port is not a port", () => {
    expect(queryTarget(definition({ port: 3979, query_port: "" }))).toMatchObject({
      port: 3979,
      queryPort: false,
    });
  });

  it("asks an address meaning every interface, or none, on loopback, and keeps a real one", () => {
    expect(queryHost("0.0.0.0")).toBe("127.0.0.1");
    expect(queryHost("::")).toBe("127.0.0.1");
    expect(queryHost("[::]")).toBe("127.0.0.1");
    expect(queryHost("")).toBe("127.0.0.1");
    expect(queryHost(undefined)).toBe("127.0.0.1");
    expect(queryHost("${ip}")).toBe("127.0.0.1");
    expect(queryHost(" 10.0.0.5 ")).toBe("10.0.0.5");
    expect(queryHost("[::1]")).toBe("::1");
    expect(queryTarget(definition({ ip: "192.168.1.20", port: 3979 }))?.host).toBe("192.168.1.20");
    expect(queryTarget(definition({ port: 3979 }))?.host).toBe("127.0.0.1");
  });

  it("has nothing to ask without a query type or a usable port", () => {
    expect(queryTarget(definition({ port: 3979 }, ""))).toBeUndefined();
    expect(queryTarget(definition({ ip: "0.0.0.0" }))).toBeUndefined();
    expect(queryTarget(definition({ port: "not a port" }))).toBeUndefined();
    expect(queryTarget(definition({ port: 0 }))).toBeUndefined();
    expect(queryTarget(definition({ port: 70000 }))).toBeUndefined();
    expect(queryTarget(definition({ port: " 27015 " }))).toMatchObject({ port: 27015 });
  });
});
