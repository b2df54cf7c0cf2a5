import { isObject } from "./problems.ts";
import { coerceVariableValue, variableTypeOf } from "./variables.ts";

type Json = Record<string, unknown>;

/**
 * Rewrites an older template document (the v2.6 branch of the community
 * repo, and the pufferd-era v1 shape) into the v3 shape, listing what it
 * changed. A v3 document passes unchanged. What the v3 loader already reads
 * (string values for integer/boolean variables, `standard`/`tty`
 * environments, a single string where a list is expected) is left to
 * parseTemplate; this handles the shapes it would reject:
 * - a `pufferd` wrapper object around the template (v1);
 * - `install: {commands: [...]}` instead of a list (also uninstall);
 * - `run.program` + `run.arguments`, or `run.command` as a list of words;
 * - docker `networkMode` (v2) → `networkName`;
 * - a `writefile` without `text` (v2 wrote an empty file; v3 requires it);
 * - an integer variable whose default is not an integer literal (csgo's
 *   `mapgroup: "mg_active"`, palworld's `"1.000000"` rates, FTB's empty
 *   `modpack_id`), or a boolean one whose default is no boolean, becomes a
 *   string variable: that is what the template means, where the Go loader
 *   would refuse the file or turn "1.5" rates into whole numbers.
 */
export function convertLegacyTemplate(input: unknown): { document: unknown; changes: string[] } {
  if (!isObject(input)) return { document: input, changes: [] };
  const changes: string[] = [];
  let document: Json = structuredClone(input);
  if (isObject(document.pufferd)) {
    const { pufferd, ...rest } = document;
    document = { ...rest, ...(pufferd as Json) };
    changes.push("unwrapped the pufferd object");
  }
  for (const key of ["install", "uninstall"]) {
    const value = document[key];
    if (isObject(value) && Array.isArray(value.commands)) {
      document[key] = value.commands;
      changes.push(`${key}.commands → ${key}`);
    }
  }
  if (isObject(document.run)) convertRun(document.run, changes);
  for (const operation of operationsOf(document)) {
    if (operation.type === "writefile" && operation.text === undefined) {
      operation.text = "";
      changes.push("writefile without text → empty text");
    }
  }
  for (const environment of [document.environment, ...asList(document.supportedEnvironments)]) {
    if (isObject(environment) && "networkMode" in environment) {
      environment.networkName ??= environment.networkMode;
      delete environment.networkMode;
      changes.push("environment networkMode → networkName");
    }
  }
  if (isObject(document.data)) convertVariables(document.data, changes);
  return { document, changes };
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Every operation object of the document: install, uninstall, run.pre and run.post. */
function operationsOf(document: Json): Json[] {
  const run = isObject(document.run) ? document.run : {};
  return [document.install, document.uninstall, run.pre, run.post].flatMap(asList).filter(isObject);
}

/** Quotes a word for splitCommandLine when it holds blanks or quotes. */
function quoteWord(word: string): string {
  return /^[^\s'"\\]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}

function convertRun(run: Json, changes: string[]): void {
  if (typeof run.program === "string") {
    const words = [run.program, ...asList(run.arguments).map(String)];
    run.command = words.map(quoteWord).join(" ");
    delete run.program;
    delete run.arguments;
    changes.push("run.program + run.arguments → run.command");
  } else if (Array.isArray(run.command) && run.command.every((word) => typeof word === "string")) {
    run.command = run.command.map(quoteWord).join(" ");
    changes.push("run.command list of words → command line");
  }
}

function holdsItsType(type: string | undefined, value: unknown): boolean {
  if (type === "integer") {
    if (typeof value === "number") return Number.isSafeInteger(value);
    return typeof value === "string" && /^[+-]?\d+$/.test(value.trim());
  }
  return type !== "boolean" || coerceVariableValue("boolean", value).ok;
}

function convertVariables(data: Json, changes: string[]): void {
  for (const [name, variable] of Object.entries(data)) {
    if (!isObject(variable)) continue;
    const type = variableTypeOf(variable.type);
    if (holdsItsType(type, variable.value)) continue;
    variable.type = "string";
    changes.push(`data.${name}: ${type} with value ${JSON.stringify(variable.value)} → string`);
  }
}
