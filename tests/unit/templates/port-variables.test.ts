import { describe, expect, it } from "vitest";
import { parseTemplate, portVariables } from "../../../server/templates/index.ts";

describe("a template's port variables (issue 36)", () => {
  it("are integers named port or ending in port/Port, and those marked port: true, the primary first", () => {
    expect(
      portVariables({
        queryPort: { type: "integer", value: 27015 },
        rconport: { type: "integer", value: 25575 },
        port: { type: "integer", value: 25565 },
        voice: { type: "integer", value: 9987, port: true },
        motdport: { type: "string", value: "x" },
        sport: { type: "integer", value: 1, port: false },
        memory: { type: "integer", value: 1024 },
      }),
    ).toEqual(["port", "queryPort", "rconport", "voice"]);
    expect(portVariables({ game: { type: "integer", value: 1, port: true } })).toEqual(["game"]);
    expect(portVariables(undefined)).toEqual([]);
  });

  it("keeps the port field through the template parser, and refuses one that is not a boolean", () => {
    const base = {
      type: "t",
      display: "T",
      install: [],
      run: { command: "x" },
      environment: { type: "host" },
    };
    const parsed = parseTemplate({ ...base, data: { game: { type: "integer", value: 7777, port: true } } });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(portVariables(parsed.template.data)).toEqual(["game"]);
    const refused = parseTemplate({ ...base, data: { game: { type: "integer", value: 7777, port: "yes" } } });
    expect(refused.ok).toBe(false);
  });
});
