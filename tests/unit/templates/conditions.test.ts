import { describe, expect, it, vi } from "vitest";
import {
  ConditionEvaluator,
  conditionHolds,
  conditionScope,
  defaultConditionEvaluator,
  parseTemplate,
  visibleGroups,
} from "../../../server/templates/index.ts";
import { errorBody, serverContext } from "./fixtures.ts";

const evaluator = new ConditionEvaluator();
const scope = {
  env: "host",
  os: "linux",
  arch: "amd64",
  modlauncher: "forge",
  port: 25565,
  eula: true,
  javaversion: "",
};

describe("CEL conditions", () => {
  it.each([
    ["env == 'host'", true],
    ["env == 'docker'", false],
    ['os != "windows"', true],
    ["modlauncher == 'forge' && env == 'host'", true],
    ["modlauncher == 'fabric' || arch == 'arm64'", false],
    ["javaversion != '' && env == 'host'", false],
    ["port == 25565", true],
    ["port > 1024 && port < 65536", true],
    ["eula", true],
    ["!eula", false],
    ["'forge-' + modlauncher == 'forge-forge'", true],
    ["false && undefinedName == 'x'", false],
    ["true || undefinedName == 'x'", true],
  ])("%s → %s", (condition, expected) => {
    expect(evaluator.evaluate(condition, scope)).toBe(expected);
  });

  it("treats a missing or empty condition as always true", () => {
    expect(evaluator.evaluate(undefined, {})).toBe(true);
    expect(evaluator.evaluate("", {})).toBe(true);
    expect(evaluator.evaluate("  ", {})).toBe(true);
  });

  it("calls the injected file_exists and in_path", () => {
    const fileExists = vi.fn((path: string) => path === "forge-1.20.1-47.2.0.jar");
    const inPath = vi.fn((binary: string) => binary === "java21");
    const host = new ConditionEvaluator({ fileExists, inPath });
    const forge = { modlauncher: "forge", forgebuild: "1.20.1-47.2.0" };
    expect(
      host.evaluate("modlauncher == 'forge' && file_exists('forge-' + forgebuild + '.jar')", forge),
    ).toBe(true);
    expect(fileExists).toHaveBeenCalledWith("forge-1.20.1-47.2.0.jar");
    expect(host.evaluate('!file_exists("server.properties")', {})).toBe(true);
    expect(host.evaluate("in_path('java21') && !in_path('java8')", {})).toBe(true);
    expect(inPath.mock.calls).toEqual([["java21"], ["java8"]]);
  });

  it("fails with ErrGeneric when a host function is not available (the browser)", () => {
    expect(errorBody(() => evaluator.evaluate("file_exists('server.jar')", {}))).toEqual({
      error: {
        code: "ErrGeneric",
        msg: "condition `file_exists('server.jar')`: file_exists() is not available here",
        metadata: { condition: "file_exists('server.jar')" },
      },
    });
  });

  it("fails on an unknown variable, a non-boolean result and bad syntax", () => {
    const message = (condition: string) =>
      (errorBody(() => evaluator.evaluate(condition, scope)) as { error: { msg: string } }).error.msg;
    expect(message("nope == 'x'")).toBe("condition `nope == 'x'`: Unknown variable: nope");
    expect(message("port + 1")).toBe("condition `port + 1`: gave bigint, not a boolean");
    expect(message("env == ")).toMatch(/^condition `env == `: /);
  });

  it("checks conditions without evaluating them", () => {
    expect(evaluator.check("env == 'host' && file_exists('x')")).toBeUndefined();
    expect(evaluator.check("")).toBeUndefined();
    expect(evaluator.check("env ==")).toMatch(/Unexpected token/);
    expect(evaluator.check("nosuch('x')")).toMatch(/found no matching overload for 'nosuch\(string\)'/);
    expect(evaluator.check("1 + 2")).toBe("gives int, not a boolean");
  });

  it("reports a bad condition in a template at its path", () => {
    const result = parseTemplate({
      type: "t",
      run: { command: [{ command: "a", if: "env = 'host'" }], stop: "stop" },
      install: [{ type: "mkdir", target: "x", if: "size(1)" }],
      groups: [{ variables: [], if: "modlauncher == 'forge'" }],
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((problem) => problem.path)).toEqual([
      "install[0].if",
      "run.command[0].if",
    ]);
  });
});

describe("condition scope", () => {
  it("holds the variables plus env, serverId, os, arch, and success/exitCode in post", () => {
    const ctx = serverContext({
      variables: { port: 1, env: "shadowed" },
      exit: { success: true, exitCode: 0 },
    });
    expect(conditionScope(ctx)).toEqual({
      port: 1,
      env: "host",
      serverId: "0a1b2c3d",
      os: "linux",
      arch: "amd64",
      success: true,
      exitCode: 0,
    });
    expect(conditionHolds("success && exitCode == 0 && env == 'host'", ctx)).toBe(true);
  });

  it("uses the context's evaluator for host functions", () => {
    const conditions = new ConditionEvaluator({ fileExists: () => true });
    expect(conditionHolds("file_exists('server.jar')", serverContext({ conditions }))).toBe(true);
  });

  it("evaluates group conditions with the shared evaluator, as the UI does", () => {
    const group = defaultConditionEvaluator();
    expect(group.evaluate("modlauncher == 'paper'", { modlauncher: "paper" })).toBe(true);
    expect(group.evaluate("modlauncher == 'forge'", { modlauncher: "paper" })).toBe(false);
  });

  it("lists the groups a settings form shows, in order", () => {
    const groups = [
      { display: "Forge", variables: ["forgebuild"], order: 3, if: "modlauncher == 'forge'" },
      { display: "Paper", variables: ["paperbuild"], order: 2, if: "modlauncher == 'paper'" },
      { display: "Server", variables: ["port"], order: 1 },
      { display: "Broken", variables: [], order: 4, if: "nosuch == 1" },
    ];
    const shown = (modlauncher: string) =>
      visibleGroups(groups, { modlauncher }).map((group) => group.display);
    expect(shown("paper")).toEqual(["Server", "Paper", "Broken"]);
    expect(shown("forge")).toEqual(["Server", "Forge", "Broken"]);
    expect(visibleGroups(undefined, {})).toEqual([]);
  });
});
