import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { starterDir } from "../../../server/panel/templates/template-repos.ts";
import {
  ConditionEvaluator,
  checkRequirements,
  coerceVariableValue,
  environmentsOf,
  importTemplate,
  type Operation,
  parseTemplate,
  prepareOperations,
  renderRun,
  type ServerContext,
  splitCommandLine,
  substituteOperation,
  type Template,
  tokenValues,
  unknownTokens,
  userValueNames,
  variableValues,
} from "../../../server/templates/index.ts";
import {
  type CorpusFile,
  loadSchema,
  loadTemplates,
  loadTesterCases,
  v3Folder,
  v26Folder,
} from "./corpus.ts";

/**
 * Every template of both community corpora (templates.md §0: 36 in v3, 94 in
 * v2.6) must import, validate against the v3 schema, and render its run
 * command and all its steps for every environment it offers, on Linux and
 * Windows, whichever way file_exists answers.
 */

const validateSchema = new Ajv2020({ strict: false, allErrors: true }).compile(loadSchema());

/** `mods` (issue 37) is an Outpost addition the v3 schema does not know, like `limits` and `egg`. */
function schemaErrors(document: unknown): string {
  const { mods: _mods, ...v3 } = document as Record<string, unknown>;
  return validateSchema(v3) ? "" : JSON.stringify(validateSchema.errors, null, 1);
}

function imported(file: CorpusFile): Template {
  const result = importTemplate(file.document);
  if (!result.ok) throw new Error(`${file.file} does not parse: ${JSON.stringify(result.problems, null, 1)}`);
  return result.template;
}

function allOperations(template: Template): Operation[] {
  return [
    ...template.install,
    ...template.uninstall,
    ...(template.run.pre ?? []),
    ...(template.run.post ?? []),
  ];
}

/** Variables that steps create at run time (outputVariable), so `${}` may name them before they exist. */
function runtimeVariables(template: Template): Set<string> {
  return new Set(
    allOperations(template).flatMap((op) => ("outputVariable" in op ? [op.outputVariable ?? ""] : [])),
  );
}

function contexts(template: Template, variables = variableValues(template.data)): ServerContext[] {
  return environmentsOf(template).flatMap((environment) =>
    ["linux", "windows"].flatMap((os) =>
      [false, true].map((exists) => ({
        serverId: "0a1b2c3d",
        rootDir: "/srv/outpost/0a1b2c3d",
        os,
        arch: "amd64",
        env: environment.type,
        variables,
        userValues: userValueNames(template.data),
        exit: { success: true, exitCode: 0 },
        conditions: new ConditionEvaluator({ fileExists: () => exists, inPath: () => true }),
      })),
    ),
  );
}

/**
 * Where the corpus's argv changes: a user-editable default with blanks, which the reference's
 * text substitution split into several arguments, is now the one argument its author meant.
 */
const oneValueArgv: Record<string, string[]> = Object.fromEntries(
  [
    ["-public", "0"],
    ["-public", "1"],
  ]
    .map((visibility): [string[], string[]] => {
      const start = ["./valheim_server.x86_64", "-name"];
      const rest = [
        "-port",
        "2456",
        "-world",
        "VHWorld",
        "-password",
        "valheim",
        ...visibility,
        ">",
        "/dev/null",
        "&",
      ];
      return [
        [...start, "Valheim", "Server", ...rest],
        [...start, "Valheim Server", ...rest],
      ];
    })
    .concat([
      (() => {
        const program = "./ShooterGame/Binaries/Linux/ShooterGameServer";
        const tail =
          "Server?ServerAdminPassword=password?MultiHome=0.0.0.0?Port=7777?QueryPort=27015?MaxPlayers=20";
        return [
          [program, "TheIsland?listen?SessionName=My", "ARK", tail, "-server"],
          [program, `TheIsland?listen?SessionName=My ARK ${tail}`, "-server"],
        ];
      })(),
    ])
    .map(([before, after]) => [JSON.stringify(before), after]),
);

/**
 * Steps that refuse their default: FiveM's download URL is all one user-editable variable, and a
 * server user may not choose the host the node fetches from (an administrator makes it
 * userEdit false to keep it).
 */
const refusedStep = (operation: Operation) =>
  operation.type === "download" && operation.files.includes("${artifacts}");

/** Renders what a server of this template would run, and checks no token is left unresolved. */
function renderAll(template: Template, ctx: ServerContext): void {
  const tokens = tokenValues(ctx);
  const allowed = runtimeVariables(template);
  const leftOver = (text: string) => unknownTokens(text, tokens).filter((name) => !allowed.has(name));

  const run = renderRun(template.run, ctx);
  expect(run.argv.length).toBeGreaterThan(0);
  // A user's value goes in after splitting: with the defaults, the words are the ones the
  // reference's text substitution gives, but where a default holds blanks (it stays one value).
  const asText = renderRun(template.run, { ...ctx, userValues: new Set() });
  expect(run.argv).toEqual(oneValueArgv[JSON.stringify(asText.argv)] ?? asText.argv);
  expect(run.stopText).toBe(asText.stopText);
  for (const operation of allOperations(template)) {
    if (refusedStep(operation)) continue;
    const words = (userValues: ReadonlySet<string>) => {
      const step = substituteOperation(operation, tokens, userValues);
      return step.type === "command" ? step.commands.map(splitCommandLine) : step;
    };
    expect(words(ctx.userValues)).toEqual(words(new Set()));
  }
  expect(leftOver(run.command)).toEqual([]);
  const entries = typeof template.run.command === "string" ? [template.run.command] : template.run.command;
  for (const entry of entries) {
    const line = typeof entry === "string" ? entry : entry.command;
    expect(splitCommandLine(line).length).toBeGreaterThan(0);
  }
  for (const operation of allOperations(template)) {
    if (refusedStep(operation)) {
      expect(() => substituteOperation(operation, tokens, ctx.userValues)).toThrow(/variable/);
      continue;
    }
    expect(leftOver(JSON.stringify(substituteOperation(operation, tokens, ctx.userValues)))).toEqual([]);
  }
  if (template.install.some(refusedStep)) return;
  prepareOperations(template.install, ctx);
  prepareOperations(template.run.pre ?? [], ctx);
  prepareOperations(template.run.post ?? [], ctx);
  checkRequirements(template.requirements, { ...ctx, tokens, findBinary: () => true });
}

/** What the upstream v3 schema lacks and we accept: left out of our output before it is checked. */
function withoutExtensions(document: {
  run: { workingDirectory?: string };
  query?: { type?: string };
  players?: unknown;
  backup?: unknown;
}): void {
  // backup: Outpost's hooks and exclusions around a backup (issue 38).
  delete document.backup;
  // run.workingDirectory: v2 templates use it and the Go struct has it.
  delete document.run.workingDirectory;
  // query: the schema knows only minecraft; we query every type gamedig does.
  if (document.query && document.query.type !== "minecraft") delete document.query;
  // players: an Outpost addition (server/templates/players.ts).
  delete document.players;
}

function checkCorpusFile(file: CorpusFile, isV3: boolean): void {
  const result = importTemplate(file.document);
  if (!result.ok) throw new Error(`does not parse: ${JSON.stringify(result.problems, null, 1)}`);
  const template = result.template;
  if (isV3) {
    expect(result.changes, "a v3 template needs no conversion").toEqual([]);
    expect(schemaErrors(file.document)).toBe("");
  }
  // What we produce is a valid v3 document too, but for our extensions (checked separately).
  const document = JSON.parse(JSON.stringify(template));
  withoutExtensions(document);
  expect(schemaErrors(document)).toBe("");
  // Parsing our own output changes nothing.
  expect(parseTemplate(JSON.parse(JSON.stringify(template)))).toEqual({ ok: true, template });
  for (const ctx of contexts(template)) renderAll(template, ctx);
}

describe("v3 corpus", () => {
  const files = loadTemplates(v3Folder);

  it("has the 36 templates of the copied v3 branch", () => {
    expect(files).toHaveLength(36);
  });

  it.each(files.map((file) => [file.file, file] as const))("%s imports, validates and renders", (_, file) => {
    checkCorpusFile(file, true);
  });
});

describe("starter templates (shipped with the panel)", () => {
  const files = loadTemplates(starterDir);

  it("has the five starter templates", () => {
    expect(files.map((file) => file.name).sort()).toEqual([
      "custom-command",
      "factorio",
      "minecraft-java",
      "openttd",
      "terraria",
    ]);
  });

  it.each(files.map((file) => [file.file, file] as const))("%s imports, validates and renders", (_, file) => {
    // Written in the v3 format: importing converts nothing. (Checked as our own output against
    // the schema, which lacks Custom command's run.workingDirectory and OpenTTD's query type.)
    expect(importTemplate(file.document)).toMatchObject({ ok: true, changes: [] });
    checkCorpusFile(file, false);
  });
});

describe("v2.6 corpus (converted on import)", () => {
  const files = loadTemplates(v26Folder);

  it("has the 94 templates of the copied v2.6 branch", () => {
    expect(files).toHaveLength(94);
  });

  it.each(files.map((file) => [file.file, file] as const))("%s imports, validates and renders", (_, file) => {
    checkCorpusFile(file, false);
  });

  it("keeps run.workingDirectory, the one field the v3 schema lacks", () => {
    const openttd = imported(files.find((file) => file.name === "openttd")!);
    expect(openttd.run.workingDirectory).toBe("./openttd");
    const [ctx] = contexts(openttd);
    expect(renderRun(openttd.run, ctx).workingDirectory).toBe("./openttd");
  });
});

/** Only the v3 branch has the upstream tester's data.json files (templates.md §0). */
describe("v3 tester cases (data.json)", () => {
  const templates = new Map(loadTemplates(v3Folder).map((file) => [file.name, file]));
  const cases = loadTesterCases(v3Folder).flatMap(({ dir, cases }) => cases.map((entry) => ({ dir, entry })));

  it("has cases from the 6 data.json files", () => {
    expect(new Set(cases.map(({ dir }) => dir)).size).toBe(6);
  });

  it.each(cases.map(({ dir, entry }) => [`${dir}: ${entry.name}`, dir, entry] as const))(
    "%s renders with its variable values",
    (_, dir, entry) => {
      const file = templates.get(dir);
      if (!file) throw new Error(`no template ${dir} for tester case ${entry.name}`);
      const template = imported(file);
      const variables = variableValues(template.data);
      for (const [name, raw] of Object.entries(entry.variables ?? {})) {
        const variable = template.data[name];
        if (!variable) throw new Error(`tester case sets unknown variable ${name}`);
        const coerced = coerceVariableValue(variable.type, raw, variable.options);
        if (!coerced.ok) throw new Error(`${name}: ${coerced.problem}`);
        variables[name] = coerced.value;
      }
      for (const ctx of contexts(template, variables).filter((ctx) => ctx.env === entry.environment.type)) {
        renderAll(template, ctx);
      }
    },
  );
});
