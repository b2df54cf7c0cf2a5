import { describe, expect, it } from "vitest";
import { convertLegacyTemplate, importTemplate, splitCommandLine } from "../../../server/templates/index.ts";

describe("convertLegacyTemplate", () => {
  it("leaves a v3 document as it is, and never changes its input", () => {
    const v3 = {
      type: "t",
      data: { port: { type: "integer", value: 25565 } },
      install: [{ type: "writefile", target: "a", text: "" }],
      run: { command: [{ command: "./a", if: "env == 'host'" }], stop: "stop" },
      environment: { type: "host" },
    };
    const copy = structuredClone(v3);
    expect(convertLegacyTemplate(v3)).toEqual({ document: v3, changes: [] });
    expect(v3).toEqual(copy);
  });

  it("reads the v2.6 shapes the v3 loader refuses", () => {
    const v26 = {
      name: "csgo",
      type: "srcds",
      install: [{ type: "writefile", target: "eula.txt" }],
      run: { command: "./srcds_run", stop: "quit", workingDirectory: "./game" },
      environment: { type: "docker", image: "python", networkMode: "host" },
      supportedEnvironments: [{ type: "tty" }],
      data: {
        mapgroup: { type: "integer", value: "mg_active" },
        rate: { type: "integer", value: "1.000000" },
        modpack: { type: "integer", value: "" },
        port: { type: "integer", value: "27015" },
        vac: { type: "boolean", value: "maybe" },
        secure: { type: "boolean", value: "false" },
      },
    };
    const { document, changes } = convertLegacyTemplate(v26);
    expect(changes).toEqual([
      "writefile without text → empty text",
      "environment networkMode → networkName",
      'data.mapgroup: integer with value "mg_active" → string',
      'data.rate: integer with value "1.000000" → string',
      'data.modpack: integer with value "" → string',
      'data.vac: boolean with value "maybe" → string',
    ]);
    const result = importTemplate(v26);
    expect(result).toMatchObject({
      ok: true,
      changes,
      template: {
        install: [{ type: "writefile", target: "eula.txt", text: "" }],
        run: { command: "./srcds_run", stop: "quit", workingDirectory: "./game" },
        environment: { type: "docker", image: "python", networkName: "host" },
        supportedEnvironments: [{ type: "host" }],
        data: {
          mapgroup: { type: "string", value: "mg_active" },
          rate: { type: "string", value: "1.000000" },
          modpack: { type: "string", value: "" },
          port: { type: "integer", value: 27015 },
          vac: { type: "string", value: "maybe" },
          secure: { type: "boolean", value: false },
        },
      },
    });
    expect(document).not.toHaveProperty("networkMode");
  });

  it("reads the pufferd v1 shape: wrapper, install.commands, program and arguments", () => {
    const v1 = {
      pufferd: {
        type: "java",
        display: "Old",
        install: { commands: [{ type: "download", files: "https://example.invalid/server.jar" }] },
        run: {
          stop: "stop",
          program: "java",
          arguments: ["-Xmx${memory}M", "-Dname=My World", "it's", "-jar", "server.jar"],
        },
        data: { memory: { value: "1024", type: "integer" } },
      },
    };
    const result = importTemplate(v1);
    expect(result.changes).toEqual([
      "unwrapped the pufferd object",
      "install.commands → install",
      "run.program + run.arguments → run.command",
    ]);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.template.install).toEqual([
      { type: "download", files: ["https://example.invalid/server.jar"] },
    ]);
    expect(splitCommandLine(result.template.run.command as string)).toEqual([
      "java",
      "-Xmx${memory}M",
      "-Dname=My World",
      "it's",
      "-jar",
      "server.jar",
    ]);
  });

  it("joins a run.command list of words into a command line", () => {
    const result = importTemplate({ type: "t", run: { command: ["./srv", "-name", "A B"], stop: "quit" } });
    expect(result.ok && result.template.run.command).toBe("./srv -name 'A B'");
  });

  it("still reports what it cannot convert", () => {
    expect(
      importTemplate({ type: "t", run: { command: "x", stop: "s" }, install: [{ type: "warp" }] }).ok,
    ).toBe(false);
  });
});
