import { describe, expect, it } from "vitest";
import { coerceVariableValue, parseTemplate, variableTypeOf } from "../../../server/templates/index.ts";

const options = [{ value: "vanilla" }, { value: "forge" }, { value: "0" }];

describe("coerceVariableValue", () => {
  it.each([
    ["string", 25565, "25565"],
    ["string", true, "true"],
    ["string", null, ""],
    ["string", undefined, ""],
    ["integer", 25565, 25565],
    ["integer", "25565", 25565],
    ["integer", " -3 ", -3],
    ["integer", "", 0],
    ["integer", null, 0],
    ["integer", "72.000000", 72],
    ["boolean", true, true],
    ["boolean", "true", true],
    ["boolean", "False", false],
    ["boolean", "1", true],
    ["boolean", "f", false],
    ["boolean", 0, false],
    ["boolean", 2, true],
    ["boolean", null, false],
    ["option", "forge", "forge"],
    ["option", 0, "0"],
    ["option", "", ""],
    ["option", null, ""],
  ] as const)("%s from %j gives %j", (type, raw, value) => {
    expect(coerceVariableValue(type, raw, options)).toEqual({ ok: true, value });
  });

  it.each([
    ["integer", 1.5, "1.5 is not a whole number"],
    ["integer", "mg_active", '"mg_active" is not an integer'],
    ["integer", "1.5", '"1.5" is not an integer'],
    ["integer", true, '"true" is not an integer'],
    ["boolean", "yes", '"yes" is not a boolean'],
    ["boolean", "constructor", '"constructor" is not a boolean'],
    ["option", "fabric", '"fabric" is not one of the options ("vanilla", "forge", "0")'],
    ["string", { a: 1 }, "expected a string value, got an object"],
    ["integer", [1], "expected an integer value, got an array"],
  ] as const)("%s from %j fails: %s", (type, raw, problem) => {
    expect(coerceVariableValue(type, raw, options)).toEqual({ ok: false, problem });
  });

  it("keeps the option's own value type", () => {
    expect(coerceVariableValue("option", "2", [{ value: 2 }])).toEqual({ ok: true, value: 2 });
  });
});

describe("variable types", () => {
  it("reads a missing type as string and options as option", () => {
    expect(variableTypeOf(undefined)).toBe("string");
    expect(variableTypeOf("")).toBe("string");
    expect(variableTypeOf("options")).toBe("option");
    expect(variableTypeOf("float")).toBeUndefined();
  });
});

describe("variables in a template", () => {
  const parse = (data: unknown) => parseTemplate({ type: "t", run: { command: "x", stop: "stop" }, data });

  it("converts every value to its declared type", () => {
    const result = parse({
      port: { type: "integer", value: "25565", display: "Port", required: true, userEdit: false },
      eula: { type: "boolean", value: "false" },
      motd: { value: null, desc: "<b>help</b>" },
      launcher: { type: "options", value: "forge", options },
      "server-port": { type: "integer", value: 19132 },
    });
    expect(result).toMatchObject({
      ok: true,
      template: {
        data: {
          port: { type: "integer", value: 25565, display: "Port", required: true, userEdit: false },
          eula: { type: "boolean", value: false },
          motd: { type: "string", value: "", desc: "<b>help</b>" },
          launcher: { type: "option", value: "forge", options },
          "server-port": { type: "integer", value: 19132 },
        },
      },
    });
  });

  it("reports each bad variable at its path", () => {
    const result = parse({
      port: { type: "integer", value: "high" },
      mode: { type: "option", value: "a" },
      kind: { type: "float", value: 1 },
      "max-players": { type: "integer", value: "x" },
      flag: { type: "boolean", value: true, required: "sometimes" },
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: "data.port.value", problem: '"high" is not an integer' },
        { path: "data.mode.options", problem: "an option variable needs options" },
        { path: "data.mode.value", problem: '"a" is not one of the options ()' },
        {
          path: "data.kind.type",
          problem: 'unknown variable type "float" (string, integer, boolean or option)',
        },
        { path: 'data["max-players"].value', problem: '"x" is not an integer' },
        { path: "data.flag.required", problem: "expected a boolean, got a string" },
      ],
    });
  });
});
