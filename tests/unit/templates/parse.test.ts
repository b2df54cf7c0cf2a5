import { describe, expect, it } from "vitest";
import { parseTemplate, templateErrors } from "../../../server/templates/index.ts";

const minimal = { type: "test", run: { command: "./server", stop: "stop" } };

describe("parseTemplate", () => {
  it("reads a minimal template and fills the containers", () => {
    expect(parseTemplate(minimal)).toEqual({
      ok: true,
      template: {
        type: "test",
        data: {},
        install: [],
        uninstall: [],
        run: { command: "./server", stop: "stop" },
        environment: { type: "host" },
        requirements: {},
      },
    });
  });

  it("reads every section of a full definition", () => {
    const result = parseTemplate({
      type: "minecraft-java",
      id: "0a1b2c3d",
      display: "Minecraft",
      icon: "minecraft-java",
      data: { memory: { type: "integer", value: 1024 } },
      groups: [{ display: "Forge", description: "", variables: ["memory"], order: 2, if: "memory > 0" }],
      install: [{ type: "download", files: "https://example.invalid/a.jar" }],
      uninstall: [{ type: "command", commands: "rm -rf cache" }],
      run: {
        command: [{ command: "java -jar a.jar", if: "env == 'host'", stdin: { type: "stdin" } }],
        stopCode: "15",
        pre: [{ type: "sleep", duration: "1m30s" }],
        post: [{ type: "console", message: "bye" }],
        environmentVars: { A: "1", B: 2 },
        stdout: { type: "file", file: "logs/latest.log" },
        autostart: "true",
        expectedExitCode: 143,
      },
      environment: {
        type: "docker",
        image: "eclipse-temurin:${javaversion}",
        portBindings: ["0.0.0.0:25565:25565/tcp"],
      },
      supportedEnvironments: [{ type: "tty" }, { type: "docker", image: "x" }],
      requirements: { os: "linux", arch: "amd64", binaries: ["java"] },
      stats: { type: "jcmd" },
      query: { type: "minecraft" },
      name: "ignored, as in Go",
    });
    expect(result).toEqual({
      ok: true,
      template: {
        type: "minecraft-java",
        id: "0a1b2c3d",
        display: "Minecraft",
        icon: "minecraft-java",
        data: { memory: { type: "integer", value: 1024 } },
        groups: [{ display: "Forge", description: "", variables: ["memory"], order: 2, if: "memory > 0" }],
        install: [{ type: "download", files: ["https://example.invalid/a.jar"] }],
        uninstall: [{ type: "command", commands: ["rm -rf cache"] }],
        run: {
          command: [{ command: "java -jar a.jar", if: "env == 'host'", stdin: { type: "stdin" } }],
          stopCode: 15,
          pre: [{ type: "sleep", duration: "1m30s" }],
          post: [{ type: "console", message: "bye" }],
          environmentVars: { A: "1", B: "2" },
          stdout: { type: "file", file: "logs/latest.log" },
          autostart: true,
          expectedExitCode: 143,
        },
        environment: {
          type: "docker",
          image: "eclipse-temurin:${javaversion}",
          portBindings: ["0.0.0.0:25565:25565/tcp"],
        },
        supportedEnvironments: [{ type: "host" }, { type: "docker", image: "x" }],
        requirements: { os: "linux", arch: "amd64", binaries: ["java"] },
        stats: { type: "jcmd" },
        query: { type: "minecraft" },
      },
    });
  });

  it("reads null as unset, as the Go loader does", () => {
    const result = parseTemplate({
      ...minimal,
      icon: null,
      install: null,
      run: { ...minimal.run, pre: null },
    });
    expect(result.ok && result.template).toMatchObject({ install: [], run: { command: "./server" } });
  });

  it("refuses what is not an object", () => {
    expect(parseTemplate([])).toEqual({
      ok: false,
      problems: [{ path: "", problem: "expected an object, got an array" }],
    });
  });

  it("lists every problem with its path", () => {
    const result = parseTemplate({
      type: 7,
      data: { port: { type: "integer", value: "x" } },
      install: [
        { type: "download" },
        { type: "teleport" },
        { type: "sleep", duration: "soon" },
        { type: "command", commands: [null] },
        "mkdir",
      ],
      run: { command: [], stopCode: 99, stdin: { type: "pigeon" }, autorestart: "often" },
      environment: { type: "vm" },
      supportedEnvironments: {},
      requirements: { binaries: [1, {}] },
      groups: [{ display: "G" }],
      stats: { type: "jfr" },
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: "data.port.value", problem: '"x" is not an integer' },
        { path: "install[0].files", problem: "is required" },
        {
          path: "install[1].type",
          problem: expect.stringMatching(
            /^unknown operation type "teleport" \(one of alterfile, archive, .*writefile\)$/,
          ),
        },
        { path: "install[2].duration", problem: '"soon" is not a duration such as "5s" or "1m30s"' },
        { path: "install[3].commands[0]", problem: "expected a string, got null" },
        { path: "install[4]", problem: "expected an object, got a string" },
        { path: "run.command", problem: "needs at least one command" },
        { path: "run.stopCode", problem: "99 is not a signal number" },
        { path: "run.stdin.type", problem: 'unknown console type "pigeon" (stdin, telnet, rcon, rconws)' },
        { path: "run.autorestart", problem: "expected a boolean, got a string" },
        { path: "environment.type", problem: 'unknown environment type "vm" (host or docker)' },
        { path: "requirements.binaries[1]", problem: "expected a string, got an object" },
        { path: "groups[0].variables", problem: "is required" },
        { path: "supportedEnvironments", problem: "expected a list, got an object" },
        { path: "stats.type", problem: 'unknown type "jfr" (jcmd)' },
      ],
    });
  });

  it("requires run and its command", () => {
    expect(parseTemplate({ type: "x" })).toEqual({
      ok: false,
      problems: [{ path: "run", problem: "is required" }],
    });
    expect(parseTemplate({ type: "x", run: { stop: 1, stopCode: -1 } })).toEqual({
      ok: false,
      problems: [
        { path: "run.command", problem: "is required" },
        { path: "run.stopCode", problem: "-1 is not a signal number" },
      ],
    });
    expect(parseTemplate({ type: "x", run: { command: [{ if: "true" }] } })).toEqual({
      ok: false,
      problems: [{ path: "run.command[0].command", problem: "is required" }],
    });
  });

  it("accepts a substituted sleep duration, which is only known at run time", () => {
    expect(parseTemplate({ ...minimal, install: [{ type: "sleep", duration: "${delay}" }] }).ok).toBe(true);
  });

  it("reads the resource limits, each optional, and refuses zero or a fraction", () => {
    const parsed = parseTemplate({ ...minimal, limits: { memoryMiB: 256, pids: "64", cpuPercent: 50 } });
    expect(parsed.ok && parsed.template.limits).toEqual({ memoryMiB: 256, pids: 64, cpuPercent: 50 });
    expect(parseTemplate({ ...minimal, limits: { memoryMiB: 0, pids: 1.5 } })).toEqual({
      ok: false,
      problems: [
        { path: "limits.memoryMiB", problem: "must be 1 or more" },
        { path: "limits.pids", problem: expect.stringContaining("integer") },
      ],
    });
  });

  it("reads swap, IO weight and CPU threads, and says what is wrong with each", () => {
    const limits = { memoryMiB: 512, swapMiB: 256, ioWeight: 700, cpuThreads: "0-1,3" };
    const parsed = parseTemplate({ ...minimal, limits });
    expect(parsed.ok && parsed.template.limits).toEqual(limits);
    const unlimited = parseTemplate({
      ...minimal,
      limits: { memoryMiB: 512, swapMiB: "unlimited", cpuThreads: 2 },
    });
    expect(unlimited.ok && unlimited.template.limits).toEqual({
      memoryMiB: 512,
      swapMiB: "unlimited",
      cpuThreads: "2",
    });
    const none = parseTemplate({ ...minimal, limits: { memoryMiB: 512, swapMiB: 0 } });
    expect(none.ok && none.template.limits).toEqual({ memoryMiB: 512, swapMiB: 0 });
    const problemsOf = (bad: Record<string, unknown>) => {
      const result = parseTemplate({ ...minimal, limits: { memoryMiB: 64, ...bad } });
      return result.ok ? [] : result.problems;
    };
    expect(problemsOf({ swapMiB: -1 })).toEqual([{ path: "limits.swapMiB", problem: "must be 0 or more" }]);
    expect(problemsOf({ swapMiB: "lots" })).toEqual([
      { path: "limits.swapMiB", problem: expect.stringContaining("integer") },
    ]);
    expect(problemsOf({ ioWeight: 5 })).toEqual([
      { path: "limits.ioWeight", problem: "must be from 10 to 1000" },
    ]);
    expect(problemsOf({ ioWeight: 1001 })[0]?.problem).toBe("must be from 10 to 1000");
    for (const [cpus, problem] of [
      ["0, 1", "must be CPU numbers and ranges like 0,2 or 0-3"],
      ["0-", "must be CPU numbers and ranges like 0,2 or 0-3"],
      [",1", "must be CPU numbers and ranges like 0,2 or 0-3"],
      ["", "must be CPU numbers and ranges like 0,2 or 0-3"],
      ["3-1", "range 3-1 goes downward"],
      ["0-2,2", "names CPU 2 twice"],
      ["9000", "names CPU 9000, above 8191"],
    ]) {
      expect(problemsOf({ cpuThreads: cpus })).toEqual([{ path: "limits.cpuThreads", problem }]);
    }
    expect(parseTemplate({ ...minimal, limits: { swapMiB: 128 } })).toEqual({
      ok: false,
      problems: [{ path: "limits.swapMiB", problem: "needs memoryMiB" }],
    });
  });

  it("refuses a whole number too large to hold exactly, as a number or as text, saying so", () => {
    expect(
      parseTemplate({ ...minimal, limits: { diskMiB: 2 ** 53, memoryMiB: "99999999999999999999" } }),
    ).toEqual({
      ok: false,
      problems: [
        { path: "limits.memoryMiB", problem: `must be at most ${Number.MAX_SAFE_INTEGER}` },
        { path: "limits.diskMiB", problem: `must be at most ${Number.MAX_SAFE_INTEGER}` },
      ],
    });
  });
});

describe("ErrTemplateInvalid", () => {
  it("carries the first problem in the envelope and counts them all", () => {
    const result = parseTemplate({ type: "x", run: { command: 1 }, install: {} });
    if (result.ok) throw new Error("expected problems");
    expect(templateErrors.invalid(result.problems).toBody()).toEqual({
      error: {
        code: "ErrTemplateInvalid",
        msg: "template invalid at ${path}: ${problem}",
        metadata: {
          path: "install",
          problem: "expected a list, got an object",
          problems: 2,
        },
      },
    });
  });
});
