import { describe, expect, it } from "vitest";
import {
  ConditionEvaluator,
  type Operation,
  operationTypes,
  parseGoDuration,
  prepareOperation,
  prepareOperations,
  substituteOperation,
} from "../../../server/templates/index.ts";
import { serverContext } from "./fixtures.ts";

const install: Operation[] = [
  { type: "javadl", version: "${javaversion}", if: "env == 'host' && javaversion != ''" },
  { type: "mojangdl", version: "${version}", target: "server.jar", if: "modlauncher == ''" },
  { type: "download", files: ["https://example.invalid/${version}/a.zip", "b-${port}.jar"] },
  {
    type: "command",
    commands: ["steamcmd +app_update ${appid}"],
    if: "env == 'docker'",
    stdin: { type: "stdin" },
  },
  {
    type: "writefile",
    target: "server.properties",
    text: "server-port=${port}\nmotd=${motd}\n",
    if: "!file_exists('server.properties')",
  },
  { type: "alterfile", file: "a.cfg", search: "${old}", replace: "${port}", regex: false },
  { type: "extract", source: "a.zip", destination: "${rootDir}/game" },
  { type: "sleep", duration: "${delay}s" },
];
const variables = {
  javaversion: "21",
  version: "1.21",
  modlauncher: "",
  port: 25565,
  motd: "Hi",
  appid: 1,
  old: "x",
  delay: 2,
};

describe("prepareOperations", () => {
  it("drops steps whose condition is false and substitutes every text field", () => {
    const conditions = new ConditionEvaluator({ fileExists: () => false });
    expect(prepareOperations(install, serverContext({ variables, conditions }))).toEqual([
      { type: "javadl", version: "21", if: "env == 'host' && javaversion != ''" },
      { type: "mojangdl", version: "1.21", target: "server.jar", if: "modlauncher == ''" },
      { type: "download", files: ["https://example.invalid/1.21/a.zip", "b-25565.jar"] },
      {
        type: "writefile",
        target: "server.properties",
        text: "server-port=25565\nmotd=Hi\n",
        if: "!file_exists('server.properties')",
      },
      { type: "alterfile", file: "a.cfg", search: "x", replace: "25565", regex: false },
      { type: "extract", source: "a.zip", destination: "/srv/outpost/0a1b2c3d/game" },
      { type: "sleep", duration: "2s" },
    ]);
  });

  it("keeps the docker steps for docker", () => {
    const conditions = new ConditionEvaluator({ fileExists: () => true });
    const types = prepareOperations(install, serverContext({ variables, env: "docker", conditions })).map(
      (op) => op.type,
    );
    expect(types).toEqual(["mojangdl", "download", "command", "alterfile", "extract", "sleep"]);
  });

  it("prepares step by step, so an outputVariable and success are seen by later steps", () => {
    const pre: Operation[] = [
      { type: "resolveforgeversion", minecraftVersion: "${version}", outputVariable: "resolvedForgeVersion" },
      { type: "move", source: "forge-${resolvedForgeVersion}.jar", target: "server.jar", if: "success" },
    ];
    const data: Record<string, string | number | boolean> = { version: "1.20.1", success: true };
    const first = prepareOperation(pre[0], serverContext({ variables: data }));
    expect(first).toEqual({
      type: "resolveforgeversion",
      minecraftVersion: "1.20.1",
      outputVariable: "resolvedForgeVersion",
    });
    data.resolvedForgeVersion = "1.20.1-47.2.0"; // what the executor stores after running the first step
    expect(prepareOperation(pre[1], serverContext({ variables: data }))).toMatchObject({
      source: "forge-1.20.1-47.2.0.jar",
    });
    expect(
      prepareOperation(pre[1], serverContext({ variables: { ...data, success: false } })),
    ).toBeUndefined();
  });

  it("substitutes a command step's console config", () => {
    const step: Operation = {
      type: "command",
      commands: ["x"],
      stdin: { type: "rcon", port: "${port}", password: "${old}" },
    };
    expect(substituteOperation(step, variables, new Set())).toEqual({
      type: "command",
      commands: ["x"],
      stdin: { type: "rcon", port: "25565", password: "x" },
    });
  });

  it("knows the operation types of the v3 panel, and Outpost's mrpack", () => {
    expect(operationTypes).toHaveLength(22);
    expect(operationTypes).toContain("mrpack");
    expect(operationTypes).toContain("neoforgedl");
    expect(operationTypes).toContain("resolveneoforgeversion");
  });
});

describe("parseGoDuration", () => {
  it.each([
    ["5s", 5000],
    ["1m30s", 90_000],
    ["1.5h", 5_400_000],
    ["250ms", 250],
    ["10us", 0.01],
    ["0", 0],
    ["-2s", -2000],
  ])("%s is %d ms", (text, ms) => {
    expect(parseGoDuration(text)).toBeCloseTo(ms);
  });

  it.each(["", "5", "soon", "5 s", "s5", "1d"])("%j is no duration", (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});
