import { beforeAll, describe, expect, it } from "vitest";
import {
  checkVariableValue,
  convertEgg,
  eggRuleProblem,
  importTemplate,
  loadYaml,
  parseDocumentText,
  renderRun,
  splitCommandLine,
  type Template,
  userValueNames,
  variableValues,
} from "../../../server/templates/index.ts";

// YAML is read synchronously once js-yaml is loaded (server/templates/yaml.ts).
beforeAll(loadYaml);

function egg(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    meta: { version: "PTDL_v2" },
    name: "Test egg",
    docker_images: {
      "Java 17": "ghcr.io/pterodactyl/yolks:java_17",
      "Java 21": "ghcr.io/pterodactyl/yolks:java_21",
    },
    startup: "java -Xms128M -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}",
    config: {
      files:
        '{"server.properties":{"parser":"properties","find":{"server-port":"{{server.build.default.port}}","motd":"{{server.build.env.MOTD}}"}}}',
      startup: '{"done":")! For help, type "}',
      logs: "{}",
      stop: "^C",
    },
    scripts: {
      installation: { script: "echo hi > /mnt/server/hi.txt", container: "alpine:3", entrypoint: "ash" },
    },
    variables: [
      {
        name: "Jar",
        description: "",
        env_variable: "SERVER_JARFILE",
        default_value: "server.jar",
        user_viewable: true,
        user_editable: true,
        rules: "required|regex:/^([\\w\\d._-]+)(\\.jar)$/",
      },
      {
        name: "MOTD",
        description: "",
        env_variable: "MOTD",
        default_value: "Hello",
        user_viewable: true,
        user_editable: true,
        rules: "nullable|string|max:20",
      },
    ],
    file_denylist: ["*.jar"],
    features: ["eula"],
    ...overrides,
  };
}

function converted(input: unknown): Template {
  const result = importTemplate(input);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.template;
}

function argv(template: Template, values: Record<string, unknown> = {}): string[] {
  const data = structuredClone(template.data);
  for (const [name, value] of Object.entries(values)) data[name].value = value as string;
  return renderRun(template.run, {
    serverId: "abc",
    rootDir: "/srv/abc",
    os: "linux",
    arch: "amd64",
    env: "docker",
    variables: variableValues(data),
    userValues: userValueNames(data),
  }).argv;
}

describe("egg conversion", () => {
  it("maps images, startup, stop, variables and what v3 has no field for", () => {
    const template = converted(egg());
    expect(
      template.supportedEnvironments?.map(
        (environment) => environment.type === "docker" && environment.image,
      ),
    ).toEqual(["ghcr.io/pterodactyl/yolks:java_17", "ghcr.io/pterodactyl/yolks:java_21"]);
    expect(template.environment).toEqual({
      type: "docker",
      image: "ghcr.io/pterodactyl/yolks:java_17",
      containerRoot: "/home/container",
    });
    expect(template.run.command).toBe("java -Xms128M -Xmx${memory}M -jar ${SERVER_JARFILE}");
    expect(template.run.stopCode).toBe(2);
    expect(template.run.environmentVars).toMatchObject({
      SERVER_MEMORY: "${memory}",
      SERVER_PORT: "${port}",
      MOTD: "${MOTD}",
    });
    expect(template.data.SERVER_JARFILE).toMatchObject({ type: "string", required: true, userEdit: true });
    expect(template.data.EULA).toMatchObject({ type: "boolean", value: false, userEdit: true });
    expect(template.egg).toMatchObject({
      format: "PTDL_v2",
      install: { image: "alpine:3", entrypoint: "ash", script: "echo hi > /mnt/server/hi.txt" },
      configFiles: [
        {
          file: "server.properties",
          parser: "properties",
          find: { "server-port": "${port}", motd: "${MOTD}" },
        },
        // features: eula → a checkbox the wizard shows, written to eula.txt before each start.
        { file: "eula.txt", parser: "properties", find: { eula: "${EULA}" } },
      ],
      done: [")! For help, type "],
      denylist: ["*.jar"],
      features: ["eula"],
      rules: { MOTD: { maxLength: 20 } },
    });
    expect(argv(template, { memory: 2048 })).toEqual(["java", "-Xms128M", "-Xmx2048M", "-jar", "server.jar"]);
  });

  it("keeps a user's value one argument and refuses it as an option", () => {
    const template = converted(egg());
    expect(argv(template, { SERVER_JARFILE: "my server.jar" }).at(-1)).toBe("my server.jar");
    expect(() => argv(template, { SERVER_JARFILE: "--nogui" })).toThrow(
      expect.objectContaining({
        metadata: { field: "SERVER_JARFILE", problem: expect.stringMatching(/option/) },
      }),
    );
  });

  it("runs a line with shell syntax through sh, a user's value read from its environment variable", () => {
    const template = converted(
      egg({ startup: "cd bin && ./run --name \"{{MOTD}}\" '{{MOTD}}' {{MOTD}} -p {{SERVER_PORT}} ${MOTD}x" }),
    );
    // A user's value never reaches the script's text, so the rule against values in scripts holds.
    expect(argv(template, { MOTD: "$(reboot)" })).toEqual([
      "sh",
      "-c",
      `cd bin && ./run --name "$MOTD" ''"$MOTD"'' "$MOTD" -p 25565 "$MOTD"x`,
    ]);
  });

  it("reads Laravel rules into types, options and checks", () => {
    const variable = (rules: unknown, default_value = "") => ({
      name: "V",
      description: "",
      env_variable: "V",
      default_value,
      user_viewable: true,
      user_editable: true,
      rules,
    });
    const data = (rules: unknown, value?: string) =>
      converted(egg({ variables: [variable(rules, value)], startup: "./run", config: { stop: "stop" } }));
    expect(data("required|integer|between:1,100", "10").data.V).toMatchObject({ type: "integer", value: 10 });
    expect(data("required|integer|between:1,100", "10").egg?.rules?.V).toEqual({
      minValue: 1,
      maxValue: 100,
    });
    expect(data("required|boolean", "true").data.V).toMatchObject({ type: "boolean", value: true });
    expect(data("required|boolean", "1").data.V).toMatchObject({
      type: "option",
      options: [{ value: "1" }, { value: "0" }],
    });
    expect(data("required|string|in:easy,hard", "easy").data.V).toMatchObject({
      type: "option",
      options: [{ value: "easy" }, { value: "hard" }],
    });
    expect(data(["nullable", "string", "regex:/^(a|b)$/"], "a").egg?.rules?.V).toEqual({
      patterns: [{ source: "^(a|b)$", flags: "u" }],
    });
    expect(data("required|regex:/^(true|false)$/", "true").egg?.rules?.V?.patterns?.[0].source).toBe(
      "^(true|false)$",
    );

    const rule = data("nullable|alpha_dash|max:5").egg?.rules?.V ?? {};
    expect(eggRuleProblem(rule, "ab_c")).toBeUndefined();
    expect(eggRuleProblem(rule, "")).toBeUndefined();
    expect(eggRuleProblem(rule, "a b")).toMatch(/must match/);
    expect(eggRuleProblem(rule, "abcdef")).toMatch(/at most 5 characters/);
    expect(eggRuleProblem({ minValue: 1, maxValue: 10 }, 11)).toMatch(/at most 10/);
    // The node checks a user's value with the variable's rule too.
    const template = data("nullable|alpha_dash|max:5");
    expect(checkVariableValue(template.data.V, "a b", template.egg?.rules?.V)).toMatchObject({ ok: false });
    expect(checkVariableValue(template.data.V, "a_b", template.egg?.rules?.V)).toMatchObject({ ok: true });
  });

  it("names each field it cannot convert", () => {
    const result = convertEgg(
      egg({
        docker_images: {},
        config: {
          stop: "^X",
          files:
            '{"a.cfg":{"parser":"toml","find":{}},"b.cfg":{"parser":"file","find":{"x":"{{server.build.cpu}}"}}}',
        },
        variables: [
          { name: "V", env_variable: "V", default_value: "", user_editable: true, rules: "required|uuid" },
          { name: "W", env_variable: "W", default_value: "", user_editable: true, rules: "regex:/a/x" },
        ],
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      { path: "variables[0].rules", problem: 'rule "uuid" is not supported' },
      { path: "variables[1].rules", problem: "regex flag x has no JavaScript equivalent" },
      { path: "docker_images", problem: "the egg names no docker image" },
      { path: "config.stop", problem: "^X names no signal we can send (^C is SIGINT)" },
      {
        path: 'config.files["a.cfg"].parser',
        problem: 'unknown parser "toml" (properties, yaml, json, ini, xml or file)',
      },
      {
        path: 'config.files["b.cfg"].find.x',
        problem: "placeholder {{server.build.cpu}} names nothing the server has",
      },
    ]);
    const imported = importTemplate(egg({ config: { stop: "^X" } }));
    expect(imported.ok).toBe(false);
  });

  it("reads a YAML PLCN_v3 egg and offers its startup commands as a choice", () => {
    const yaml = `
meta:
  version: PLCN_v3
name: Bot
docker_images:
  Node 20: ghcr.io/parkervcp/yolks:nodejs_20
startup_commands:
  Default: node index.js
  Debug: node --inspect index.js
config:
  files: {}
  startup:
    done: [Ready, Logged in]
  stop: ^^C
scripts:
  installation:
    script: npm install
    container: node:20
    entrypoint: bash
variables: []
`;
    const read = parseDocumentText(yaml);
    expect(read.ok).toBe(true);
    const template = converted(read.ok ? read.document : undefined);
    expect(template.run.command).toEqual([
      { command: "node index.js" },
      { command: "node --inspect index.js", if: 'STARTUP_COMMAND == "Debug"' },
    ]);
    expect(template.data.STARTUP_COMMAND).toMatchObject({ type: "option", value: "Default" });
    expect(template.egg?.done).toEqual(["Ready", "Logged in"]);
    expect(template.run.stopCode).toBe(2);
    expect(splitCommandLine("node --inspect index.js")).toHaveLength(3);
  });

  it("says why a text is no document", () => {
    expect(parseDocumentText("{ nope")).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^not valid JSON/),
    });
    expect(parseDocumentText("a: [b")).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^neither JSON nor YAML/),
    });
  });
});
