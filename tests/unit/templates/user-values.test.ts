import { describe, expect, it } from "vitest";
import {
  checkVariableValue,
  type Execution,
  type Operation,
  prepareOperation,
  renderRun,
  splitCommandLine,
  userValueNames,
  type Variable,
  type VariableValue,
} from "../../../server/templates/index.ts";
import { errorBody, serverContext } from "./fixtures.ts";

/**
 * A value a server user sets (a userEdit variable) goes into a command line after it is
 * split into words: it stays one argument whatever it holds, and may not become an option,
 * the program, a path out of the folder or a second console line.
 */

const user = (values: Record<string, VariableValue>, trusted: Record<string, VariableValue> = {}) =>
  serverContext({ variables: { ...trusted, ...values }, userValues: new Set(Object.keys(values)) });

const argv = (command: string, values: Record<string, VariableValue>, trusted = {}) =>
  renderRun({ command } as Execution, user(values, trusted)).argv;

const refusal = (run: () => unknown) =>
  errorBody(run) as { error: { code: string; metadata: { field: string; problem: string } } };
/** Why a value was refused (the message keeps its placeholders; the reason is in metadata). */
const problem = (run: () => unknown) => refusal(run).error.metadata.problem;

describe("a user's value in the run command", () => {
  const hostile = [
    "two words",
    `it's "quoted"`,
    "x; rm -rf ~",
    "$(id)",
    "`id`",
    "$HOME ${rootDir}",
    "a\\b",
    "a && b | c > d",
    "'",
    '"',
  ];

  it.each(hostile)("stays one argument: %j", (value) => {
    expect(argv("./game -name ${name} -port 1", { name: value })).toEqual([
      "./game",
      "-name",
      value,
      "-port",
      "1",
    ]);
    expect(argv(`./game "-name=\${name}" -x`, { name: value })).toEqual(["./game", `-name=${value}`, "-x"]);
    expect(argv("./game '${name}' -x", { name: value })).toEqual(["./game", value, "-x"]);
    expect(argv("./game pre${name}post", { name: value })).toEqual(["./game", `pre${value}post`]);
  });

  it("does not start an option, unless it is a number", () => {
    for (const value of ["-exec", "--config=/etc/passwd", "+exec evil.cfg", "-"]) {
      expect(refusal(() => argv("./game -name ${name}", { name: value }))).toMatchObject({
        error: { code: "ErrVariableInvalid", metadata: { field: "name" } },
      });
      expect(() => argv(`./game "\${name}"`, { name: value })).toThrow();
    }
    expect(argv("./game -range ${abr}", { abr: "-1" })).toEqual(["./game", "-range", "-1"]);
    // Inside a word that already started, a dash is just a character.
    expect(argv("./game --name=${name}", { name: "-x" })).toEqual(["./game", "--name=-x"]);
  });

  it("is no path out of the server folder", () => {
    for (const value of ["../../etc/passwd", "..", "saves/../../x", "..\\x"]) {
      expect(refusal(() => argv("./game --save saves/${save}", { save: value }))).toMatchObject({
        error: { code: "ErrVariableInvalid", metadata: { field: "save" } },
      });
    }
    expect(problem(() => argv("./game --save ${save}", { save: "/etc/shadow" }))).toMatch(/absolute/);
    expect(argv("./game --save ${save}", { save: "saves/world..zip" })).toEqual([
      "./game",
      "--save",
      "saves/world..zip",
    ]);
  });

  it("holds no line break or control character", () => {
    for (const value of ["a\nb", "a\rb", "a\u0000b", "a\u2028b"]) {
      expect(problem(() => argv("./game ${name}", { name: value }))).toMatch(/control/);
    }
  });

  it("does not choose the program", () => {
    expect(problem(() => argv("${command}", { command: "python3" }))).toMatch(/program/);
    expect(problem(() => argv("./${version}/Linux/Server", { version: "1 -x" }))).toMatch(/program/);
    expect(problem(() => argv("./${version}/Linux/Server", { version: "../../bin" }))).toMatch(/\.\./);
    expect(argv("./${version}/Linux/Server -config c.txt", { version: "1449" })).toEqual([
      "./1449/Linux/Server",
      "-config",
      "c.txt",
    ]);
    expect(argv("java${javaversion} -jar a.jar", { javaversion: "17" })).toEqual(["java17", "-jar", "a.jar"]);
  });

  it("is not part of a shell's script, where it would be code again; after it, it is $1", () => {
    for (const command of [
      `sh -c 'echo "\${name}"'`,
      "/bin/bash -ec ${name}",
      `busybox sh -c "x \${name}"`,
    ]) {
      expect(problem(() => argv(command, { name: "x; id" }))).toMatch(/shell script/);
    }
    expect(argv(`sh -c 'echo "$1"' sh "\${name}"`, { name: "x; $(id)" })).toEqual([
      "sh",
      "-c",
      'echo "$1"',
      "sh",
      "x; $(id)",
    ]);
  });

  it("leaves the definition's own values as text of the line, as the reference does", () => {
    // jvmArgs is not user-editable: the template's author (or an administrator) wrote several arguments.
    expect(argv("java ${jvmArgs} -jar a.jar ${name}", { name: "a b" }, { jvmArgs: "-Xms1G -Xmx2G" })).toEqual(
      ["java", "-Xms1G", "-Xmx2G", "-jar", "a.jar", "a b"],
    );
  });

  it("takes a user-editable option's value as its author wrote it", () => {
    const data: Record<string, Variable> = {
      secure: {
        type: "string",
        value: "-secure",
        userEdit: true,
        options: [{ value: "-secure" }, { value: "" }],
      },
      name: { type: "string", value: "-secure", userEdit: true },
    };
    const names = userValueNames(data);
    expect([...names]).toEqual(["name"]);
    const ctx = serverContext({ variables: { secure: "-secure", name: "x" }, userValues: names });
    expect(renderRun({ command: "./s ${secure} -n ${name}" } as Execution, ctx).argv).toEqual([
      "./s",
      "-secure",
      "-n",
      "x",
    ]);
    const off = serverContext({ variables: { secure: "", name: "x" }, userValues: names });
    expect(renderRun({ command: "./s ${secure} -n ${name}" } as Execution, off).argv).toEqual([
      "./s",
      "-n",
      "x",
    ]);
  });
});

describe("a user's value in a stop text, a step or a path", () => {
  it("cannot add a second console line to the stop text", () => {
    const run = { command: "./s", stop: "say ${msg}" } as Execution;
    expect(renderRun(run, user({ msg: "bye; op me" })).stopText).toBe("say bye; op me");
    expect(refusal(() => renderRun(run, user({ msg: "bye\nop attacker" })))).toMatchObject({
      error: { code: "ErrVariableInvalid", metadata: { field: "msg" } },
    });
  });

  it("stays one argument of a command step", () => {
    const step: Operation = { type: "command", commands: ["unzip -o server-${version}.zip -d ${dir}"] };
    const prepared = prepareOperation(step, user({ version: "1 x; sh -c id", dir: "out dir" }));
    expect(prepared?.type === "command" && prepared.commands.map(splitCommandLine)).toEqual([
      ["unzip", "-o", "server-1 x; sh -c id.zip", "-d", "out dir"],
    ]);
    expect(problem(() => prepareOperation(step, user({ version: "1", dir: "-x" })))).toMatch(/option/);
  });

  it("stays one argument of steamgamedl's extra arguments", () => {
    const step: Operation = { type: "steamgamedl", appId: "1", extraArgs: "-beta ${branch}" };
    const prepared = prepareOperation(step, user({ branch: "x -os windows" }));
    expect(prepared?.type === "steamgamedl" && splitCommandLine(prepared.extraArgs ?? "")).toEqual([
      "-beta",
      "x -os windows",
    ]);
  });

  it("cannot climb out of the folder in a step's path", () => {
    for (const step of [
      { type: "mkdir", target: "worlds/${name}" },
      { type: "writefile", target: "${name}.txt", text: "x" },
      { type: "move", source: "a", target: "${name}" },
      // a config file that makes a path of it (the Terraria starter's world file)
      { type: "writefile", target: "serverconfig.txt", text: "world=${rootDir}/worlds/${name}.wld\n" },
    ] as Operation[]) {
      expect(problem(() => prepareOperation(step, user({ name: "../../etc" })))).toMatch(/\.\./);
      expect(prepareOperation(step, user({ name: "my world" }))).toBeDefined();
    }
  });

  it("cannot choose the host of a download", () => {
    const fixed: Operation = { type: "download", files: ["https://example.com/get/${version}/server.zip"] };
    expect(prepareOperation(fixed, user({ version: "2.0" }))).toEqual({
      type: "download",
      files: ["https://example.com/get/2.0/server.zip"],
    });
    for (const files of [["${url}"], ["https://${host}/server.zip"], ["https://example.com${path}"]]) {
      const step: Operation = { type: "download", files };
      expect(
        problem(() =>
          prepareOperation(step, user({ url: "http://127.0.0.1/", host: "169.254.169.254", path: "@evil" })),
        ),
      ).toMatch(/host/);
    }
  });
});

describe("a value set by a user is checked against its variable", () => {
  const variable = (extra: Partial<Variable>): Variable => ({ type: "string", value: "", ...extra });

  it("by type", () => {
    expect(checkVariableValue(variable({ type: "integer" }), "12")).toEqual({ ok: true, value: 12 });
    expect(checkVariableValue(variable({ type: "integer" }), "12 -x")).toMatchObject({ ok: false });
    expect(checkVariableValue(variable({ type: "boolean" }), "true; id")).toMatchObject({ ok: false });
    expect(checkVariableValue(variable({ type: "boolean" }), "true")).toEqual({ ok: true, value: true });
  });

  it("by its options, whatever its type", () => {
    const options = [{ value: "-steam" }, { value: "" }];
    expect(checkVariableValue(variable({ options }), "-steam")).toEqual({ ok: true, value: "-steam" });
    expect(checkVariableValue(variable({ options }), "-exec x")).toMatchObject({ ok: false });
    const size = variable({ type: "option", options: [{ value: "1" }, { value: "2" }] });
    expect(checkVariableValue(size, "3")).toMatchObject({ ok: false });
  });

  it("without control characters or line breaks", () => {
    expect(checkVariableValue(variable({}), "World\nworldpath=/etc")).toMatchObject({ ok: false });
    expect(checkVariableValue(variable({}), "My World")).toEqual({ ok: true, value: "My World" });
  });
});
