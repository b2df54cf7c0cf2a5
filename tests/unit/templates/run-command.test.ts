import { describe, expect, it } from "vitest";
import {
  ConditionEvaluator,
  type Execution,
  renderRun,
  selectRunCommand,
} from "../../../server/templates/index.ts";
import { errorBody, serverContext } from "./fixtures.ts";

describe("selectRunCommand", () => {
  const is = (value: string) => (condition: string) => condition === value;

  it("uses a plain string as it is", () => {
    expect(selectRunCommand("./server", is(""))).toEqual({ command: "./server" });
  });

  it("takes the first entry whose condition holds, even after the default", () => {
    const list = [
      { command: "default" },
      { command: "a", if: "A" },
      { command: "b", if: "B" },
      { command: "b2", if: "B" },
    ];
    expect(selectRunCommand(list, is("B")).command).toBe("b");
    expect(selectRunCommand(list, is("A")).command).toBe("a");
  });

  it("falls back to the first entry without a condition (an empty one counts)", () => {
    expect(
      selectRunCommand([{ command: "a", if: "A" }, { command: "d1", if: " " }, { command: "d2" }], is("X"))
        .command,
    ).toBe("d1");
  });

  it("fails with ErrNoCommand when nothing matches", () => {
    expect(errorBody(() => selectRunCommand([{ command: "a", if: "A" }], is("X")))).toEqual({
      error: { code: "ErrNoCommand", msg: "no command matched" },
    });
  });
});

describe("renderRun", () => {
  const minecraft: Execution = {
    command: [
      { command: "java${javaversion} -Xmx${memory}M -jar server.jar nogui", if: "env == 'host'" },
      { command: "java -Xmx${memory}M -jar server.jar nogui" },
    ],
    stop: "stop",
    environmentVars: { LD_LIBRARY_PATH: "${rootDir}/linux64:$LD_LIBRARY_PATH" },
  };
  const variables = { javaversion: "21", memory: 2048, RConPort: 28016, RConPassword: "secret" };

  it("chooses by environment, substitutes and splits", () => {
    const host = renderRun(minecraft, serverContext({ variables }));
    expect(host.argv).toEqual(["java21", "-Xmx2048M", "-jar", "server.jar", "nogui"]);
    expect(host.command).toBe("java21 -Xmx2048M -jar server.jar nogui");
    expect(host.environmentVars).toEqual({
      LD_LIBRARY_PATH: "/srv/outpost/0a1b2c3d/linux64:$LD_LIBRARY_PATH",
    });
    const docker = renderRun(minecraft, serverContext({ variables, env: "docker" }));
    expect(docker.argv[0]).toBe("java");
  });

  it("applies the defaults of the run section", () => {
    expect(renderRun(minecraft, serverContext({ variables }))).toMatchObject({
      stdin: { type: "stdin" },
      stopText: "stop",
      stopSignal: 0,
      expectedExitCode: 0,
      autostart: false,
      autorecover: false,
      autorestart: false,
    });
  });

  it("carries stopCode, expectedExitCode, flags and a substituted console config", () => {
    const rust: Execution = {
      command: "./RustDedicated +rcon.port ${RConPort}",
      stopCode: 2,
      expectedExitCode: 143,
      autostart: true,
      autorecover: true,
      stdin: { type: "rconws", port: "${RConPort}", password: "${RConPassword}" },
      workingDirectory: "./${RConPassword}",
    };
    expect(renderRun(rust, serverContext({ variables }))).toMatchObject({
      argv: ["./RustDedicated", "+rcon.port", "28016"],
      stdin: { type: "rconws", port: "28016", password: "secret" },
      stopText: "",
      stopSignal: 2,
      expectedExitCode: 143,
      autostart: true,
      autorecover: true,
      autorestart: false,
      workingDirectory: "./secret",
    });
  });

  it("prefers the chosen entry's own console config", () => {
    const run: Execution = {
      command: [{ command: "./srv", stdin: { type: "telnet", port: 8081 } }],
      stdin: { type: "rcon", port: 1, password: "x" },
      stop: "shutdown",
    };
    expect(renderRun(run, serverContext()).stdin).toEqual({ type: "telnet", port: 8081 });
  });

  it("evaluates file_exists through the context's evaluator", () => {
    const run: Execution = {
      command: [
        { command: "java @libraries/unix_args.txt", if: "!file_exists('server.jar')" },
        { command: "java -jar server.jar" },
      ],
      stop: "stop",
    };
    const withJar = serverContext({ conditions: new ConditionEvaluator({ fileExists: () => true }) });
    const withoutJar = serverContext({ conditions: new ConditionEvaluator({ fileExists: () => false }) });
    expect(renderRun(run, withJar).argv).toEqual(["java", "-jar", "server.jar"]);
    expect(renderRun(run, withoutJar).argv).toEqual(["java", "@libraries/unix_args.txt"]);
  });

  it("fails with ErrNoCommand when the command renders to nothing", () => {
    const run: Execution = { command: "${cmd}", stop: "stop" };
    expect(errorBody(() => renderRun(run, serverContext({ variables: { cmd: " " } })))).toEqual({
      error: { code: "ErrNoCommand", msg: "no command matched" },
    });
  });

  it("passes a condition's error on instead of guessing", () => {
    const run: Execution = {
      command: [{ command: "a", if: "missing == 1" }, { command: "b" }],
      stop: "stop",
    };
    expect(errorBody(() => renderRun(run, serverContext()))).toMatchObject({
      error: { code: "ErrGeneric", msg: "condition `missing == 1`: Unknown variable: missing" },
    });
  });
});
