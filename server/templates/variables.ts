import { eggRuleBreak, type RuleBreak, ruleBreakText } from "./egg-rules.ts";
import { assignDefined, readBoolean, readList, readObject, readString } from "./fields.ts";
import { childPath, isObject, jsonType, type Problems } from "./problems.ts";
import { controlCharacter } from "./substitute.ts";
import type { EggRule, Variable, VariableOption, VariableType, VariableValue } from "./types.ts";

export type Coerced = { ok: true; value: VariableValue } | { ok: false; problem: string };

/** What a user's value breaks, as data, for the browser to say in the user's language. */
export type ValueBreak =
  | RuleBreak
  | { check: "type"; type: VariableType }
  | { check: "option" }
  | { check: "control" };

export type CheckedValue =
  | { ok: true; value: VariableValue }
  | { ok: false; problem: string; broken: ValueBreak };

/** strconv.ParseBool's words (case-insensitive here), plus "" for a value never set. */
const booleanWords = new Map<string, boolean>([
  ["1", true],
  ["t", true],
  ["true", true],
  ["0", false],
  ["f", false],
  ["false", false],
  ["", false],
]);

/** Declared types; `options` is an alias some documents use, and a missing type means string. */
export function variableTypeOf(type: unknown): VariableType | undefined {
  if (type === undefined || type === null || type === "" || type === "string") return "string";
  if (type === "options") return "option";
  if (type === "integer" || type === "boolean" || type === "option") return type;
  return undefined;
}

/**
 * Converts a value to a variable's declared type, the way the Go loader does
 * so that v2 files (`"25565"`, `"false"`) keep working: null is "", "" is 0
 * for an integer, `"1.000"` is 1. An option accepts one of its option values
 * or "" (not chosen yet; `required` decides whether that may stay).
 */
export function coerceVariableValue(
  type: VariableType,
  raw: unknown,
  options: VariableOption[] = [],
): Coerced {
  const value = raw ?? "";
  const fail = (problem: string): Coerced => ({ ok: false, problem });
  if (typeof value === "object") {
    return fail(`expected ${type === "integer" ? "an" : "a"} ${type} value, got ${jsonType(value)}`);
  }
  switch (type) {
    case "string":
      return { ok: true, value: String(value) };
    case "integer": {
      if (typeof value === "number") {
        return Number.isSafeInteger(value) ? { ok: true, value } : fail(`${value} is not a whole number`);
      }
      const text = String(value).trim();
      if (text === "") return { ok: true, value: 0 };
      const whole = /^([+-]?\d+)(\.0*)?$/.exec(text);
      const parsed = whole ? Number.parseInt(whole[1], 10) : Number.NaN;
      return Number.isSafeInteger(parsed) ? { ok: true, value: parsed } : fail(`"${text}" is not an integer`);
    }
    case "boolean": {
      if (typeof value === "boolean") return { ok: true, value };
      if (typeof value === "number") return { ok: true, value: value !== 0 };
      const word = booleanWords.get(String(value).trim().toLowerCase());
      return word === undefined ? fail(`"${value}" is not a boolean`) : { ok: true, value: word };
    }
    case "option": {
      const match = options.find((option) => String(option.value) === String(value));
      if (match) return { ok: true, value: match.value };
      if (value === "") return { ok: true, value: "" };
      const allowed = options.map((option) => JSON.stringify(option.value)).join(", ");
      return fail(`${JSON.stringify(value)} is not one of the options (${allowed})`);
    }
  }
}

function parseOptions(raw: unknown, path: string, problems: Problems): VariableOption[] | undefined {
  const list = readList(raw, path, problems);
  if (!list) return undefined;
  const options: VariableOption[] = [];
  list.forEach((item, index) => {
    const itemPath = childPath(path, index);
    if (!isObject(item)) {
      problems.push({ path: itemPath, problem: `expected an object, got ${jsonType(item)}` });
      return;
    }
    const value = item.value ?? "";
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      problems.push({
        path: childPath(itemPath, "value"),
        problem: `expected a scalar, got ${jsonType(value)}`,
      });
      return;
    }
    const display = readString(item.display, childPath(itemPath, "display"), problems);
    options.push(display === undefined ? { value } : { value, display });
  });
  return options;
}

export function parseVariable(raw: unknown, path: string, problems: Problems): Variable | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const type = variableTypeOf(object.type);
  if (!type) {
    problems.push({
      path: childPath(path, "type"),
      problem: `unknown variable type ${JSON.stringify(object.type)} (string, integer, boolean or option)`,
    });
    return undefined;
  }
  const options = parseOptions(object.options, childPath(path, "options"), problems);
  if (type === "option" && !options?.length) {
    problems.push({ path: childPath(path, "options"), problem: "an option variable needs options" });
  }
  const coerced = coerceVariableValue(type, object.value, options);
  if (!coerced.ok) problems.push({ path: childPath(path, "value"), problem: coerced.problem });
  const variable: Variable = { type, value: coerced.ok ? coerced.value : "" };
  const text = (key: "display" | "desc") => readString(object[key], childPath(path, key), problems);
  const flag = (key: "required" | "userEdit" | "internal" | "port") =>
    readBoolean(object[key], childPath(path, key), problems);
  assignDefined(variable, {
    display: text("display"),
    desc: text("desc"),
    required: flag("required"),
    userEdit: flag("userEdit"),
    internal: flag("internal"),
    port: flag("port"),
    options,
  });
  return variable;
}

/**
 * A value a user sets (server create or data edit) checked against its variable: its type,
 * its options when it has some (of any type), and no control characters, so a value that
 * goes into a console line or a config file's line stays on that line; for a variable of an
 * imported egg, also the checks of its rules (`egg.rules`).
 */
export function checkVariableValue(variable: Variable, raw: unknown, rule?: EggRule): CheckedValue {
  const coerced = coerceVariableValue(variable.type, raw, variable.options);
  if (!coerced.ok) {
    const broken: ValueBreak =
      variable.type === "option" ? { check: "option" } : { check: "type", type: variable.type };
    return { ...coerced, broken };
  }
  const value = coerced.value;
  const options = variable.options ?? [];
  if (options.length > 0 && !options.some((option) => String(option.value) === String(value))) {
    const allowed = options.map((option) => JSON.stringify(option.value)).join(", ");
    if (!(variable.type === "option" && value === "")) {
      return {
        ok: false,
        problem: `${JSON.stringify(value)} is not one of the options (${allowed})`,
        broken: { check: "option" },
      };
    }
  }
  if (typeof value === "string" && controlCharacter.test(value)) {
    return {
      ok: false,
      problem: "may not contain control characters or line breaks",
      broken: { check: "control" },
    };
  }
  const broken = rule && eggRuleBreak(rule, value);
  if (broken) return { ok: false, problem: ruleBreakText(broken), broken };
  return coerced;
}

/**
 * The variables whose current value is a server user's (userEdit), for ServerContext.userValues.
 * A value that is one of the variable's own options is the template's text, not the user's:
 * `${secure}` may stand for `-secure` or for nothing, as its author wrote.
 */
export function userValueNames(data: Record<string, Variable>): Set<string> {
  return new Set(
    Object.entries(data)
      .filter(([, variable]) => variable.userEdit)
      .filter(
        ([, variable]) =>
          !variable.options?.some((option) => String(option.value) === String(variable.value)),
      )
      .map(([name]) => name),
  );
}

/** The current value of every variable, by name (the data map of reference §6). */
export function variableValues(data: Record<string, Variable>): Record<string, VariableValue> {
  return Object.fromEntries(Object.entries(data).map(([name, variable]) => [name, variable.value]));
}
