import type { EggRule, VariableOption, VariableType, VariableValue } from "./types.ts";

/**
 * An egg variable's Laravel validation rules (`required|string|max:20`, or a
 * list in PLCN eggs) read into our variable fields: a type, options, whether
 * it is required, and the checks v3 has no field for (EggRule). A rule we
 * cannot honour is a problem, never dropped.
 */
export interface ReadRules {
  type: VariableType;
  value: VariableValue;
  required: boolean;
  options?: VariableOption[];
  rule?: EggRule;
  problems: string[];
}

/** Rules that ask nothing our forms do not already do (an empty value is allowed unless required). */
const noCheck = new Set(["", "nullable", "sometimes", "present", "filled", "string", "bail"]);

/** Splits `a|b|regex:/x|y/` on `|`, keeping a regex's own bars (Laravel eggs write them so). */
export function splitRules(rules: unknown): string[] {
  // A YAML export writes an empty rule list as {}.
  if (typeof rules === "object" && rules !== null && !Array.isArray(rules) && Object.keys(rules).length === 0)
    return [];
  if (Array.isArray(rules))
    return rules.map((rule) => (typeof rule === "string" ? rule : JSON.stringify(rule)));
  const parts = String(rules ?? "").split("|");
  const out: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    let part = parts[index];
    if (part.startsWith("regex:") || part.startsWith("not_regex:")) {
      while (index + 1 < parts.length && !completeRegex(part.slice(part.indexOf(":") + 1))) {
        part += `|${parts[++index]}`;
      }
    }
    out.push(part);
  }
  return out.map((rule) => rule.trim());
}

/** A PHP regex literal with its closing delimiter and balanced parentheses. */
function completeRegex(literal: string): boolean {
  const parsed = phpRegex(literal);
  if (!parsed) return false;
  let depth = 0;
  for (let i = 0; i < parsed.source.length; i++) {
    const char = parsed.source[i];
    if (char === "\\") i++;
    else if (char === "(") depth++;
    else if (char === ")") depth--;
  }
  return depth === 0;
}

/** `/source/flags` (or another delimiter) → its parts; undefined when it is not one. */
function phpRegex(literal: string): { source: string; flags: string } | undefined {
  const delimiter = literal[0];
  if (!delimiter || /[\w\s\\]/.test(delimiter)) return undefined;
  const closing = { "(": ")", "[": "]", "{": "}", "<": ">" }[delimiter] ?? delimiter;
  const end = literal.lastIndexOf(closing);
  if (end <= 0) return undefined;
  const flags = literal.slice(end + 1);
  if (!/^[a-zA-Z]*$/.test(flags)) return undefined;
  return { source: literal.slice(1, end), flags };
}

/** A PHP (PCRE) pattern as a JavaScript RegExp, or why it cannot be one. */
function jsPattern(literal: string): { source: string; flags: string } | string {
  const parsed = phpRegex(literal);
  if (!parsed) return `regex ${literal} is not a /pattern/ literal`;
  const unknownFlag = parsed.flags.replace(/[imsu]/g, "");
  if (unknownFlag) return `regex flag ${unknownFlag} has no JavaScript equivalent`;
  // PCRE's \A and \z anchors mean ^ and $ without the m flag.
  const source = parsed.source.replace(/\\A/g, "^").replace(/\\[zZ]/g, "$");
  const flags = `${parsed.flags}u`.replace(/u(?=.*u)/, "");
  try {
    new RegExp(source, flags);
    return { source, flags };
  } catch {
    try {
      new RegExp(source, parsed.flags);
      return { source, flags: parsed.flags };
    } catch (error) {
      return `regex ${literal} is not valid here: ${(error as Error).message}`;
    }
  }
}

/** Laravel's list arguments: `in:a,b,"c"`. */
function listArgument(text: string): string[] {
  return text.split(",").map((word) => word.replace(/^"(.*)"$/, "$1"));
}

const integerText = /^[+-]?\d+$/;
const truthWords = new Set(["true", "false"]);

export function readRules(rulesRaw: unknown, defaultValue: string): ReadRules {
  const rules = splitRules(rulesRaw);
  const problems: string[] = [];
  const names = new Set(rules.map((rule) => rule.split(":")[0]));
  const rule: EggRule = {};
  const isInteger = names.has("integer") || names.has("int");
  const isNumeric = isInteger || names.has("numeric");
  let options: VariableOption[] | undefined;
  let required = false;
  const pattern = (source: string, flags = "u") => {
    rule.patterns ??= [];
    rule.patterns.push({ source, flags });
  };
  const bounds = (min: number | undefined, max: number | undefined) => {
    if (isNumeric) {
      if (min !== undefined) rule.minValue = min;
      if (max !== undefined) rule.maxValue = max;
    } else {
      if (min !== undefined) rule.minLength = min;
      if (max !== undefined) rule.maxLength = max;
    }
  };
  for (const text of rules) {
    const colon = text.indexOf(":");
    const name = colon < 0 ? text : text.slice(0, colon);
    const argument = colon < 0 ? "" : text.slice(colon + 1);
    const numbers = argument.split(",").map(Number);
    const numbersOk = argument !== "" && numbers.every(Number.isFinite);
    if (noCheck.has(name)) continue;
    switch (name) {
      case "required":
        required = true;
        break;
      case "integer":
      case "int":
      case "numeric":
      case "boolean":
        break;
      case "in":
        options = listArgument(argument).map((value) => ({ value }));
        break;
      case "not_in":
        rule.notIn = listArgument(argument);
        break;
      case "min":
      case "max":
      case "size":
      case "between":
      case "gt":
      case "gte":
      case "lt":
      case "lte":
        if (!numbersOk) {
          problems.push(`rule ${text}: expected a number`);
          break;
        }
        if (name === "min" || name === "gte") bounds(numbers[0], undefined);
        else if (name === "max" || name === "lte") bounds(undefined, numbers[0]);
        else if (name === "size") bounds(numbers[0], numbers[0]);
        else if (name === "between") bounds(numbers[0], numbers[1]);
        // gt / lt compare with the next whole number for integers and lengths.
        else if (name === "gt") bounds(numbers[0] + (isNumeric && !isInteger ? 1e-9 : 1), undefined);
        else bounds(undefined, numbers[0] - (isNumeric && !isInteger ? 1e-9 : 1));
        break;
      case "digits":
      case "digits_between":
        if (!numbersOk) problems.push(`rule ${text}: expected a number`);
        else pattern(`^\\d{${numbers[0]},${numbers[1] ?? numbers[0]}}$`);
        break;
      case "alpha":
        pattern("^[\\p{L}\\p{M}]+$");
        break;
      case "alpha_num":
        pattern("^[\\p{L}\\p{M}\\p{N}]+$");
        break;
      case "alpha_dash":
        pattern("^[\\p{L}\\p{M}\\p{N}_-]+$");
        break;
      case "url":
        pattern("^[a-zA-Z][a-zA-Z0-9+.-]*://\\S+$");
        break;
      case "starts_with":
      case "ends_with": {
        const words = listArgument(argument).map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
        pattern(name === "starts_with" ? `^(?:${words.join("|")})` : `(?:${words.join("|")})$`);
        break;
      }
      case "regex": {
        const converted = jsPattern(argument);
        if (typeof converted === "string") problems.push(converted);
        else pattern(converted.source, converted.flags);
        break;
      }
      default:
        problems.push(`rule ${JSON.stringify(text)} is not supported`);
    }
  }
  if (isNumeric && !isInteger) rule.numeric = true;
  const value = defaultValue;
  let type: VariableType = "string";
  let typed: VariableValue = value;
  if (names.has("boolean") && !options && (value === "" || truthWords.has(value))) {
    type = "boolean";
    typed = value === "true";
  } else if (names.has("boolean") && !options && (value === "1" || value === "0")) {
    // Eggs test such values as 1 and 0 ("$FLAG" == "1"): keep the words the egg uses.
    options = [{ value: "1" }, { value: "0" }];
  } else if (isInteger && !options && integerText.test(value) && Number.isSafeInteger(Number(value))) {
    type = "integer";
    typed = Number.parseInt(value, 10);
  } else if (isInteger) {
    pattern("^[+-]?\\d+$");
  }
  if (options && type === "string") {
    if (value !== "" && !options.some((option) => option.value === value)) {
      // Laravel checks only what users send; the egg's own default may lie outside `in:`.
      options.push({ value });
    }
    type = "option";
  }
  const result: ReadRules = { type, value: typed, required, problems };
  if (options) result.options = options;
  if (Object.keys(rule).length > 0) result.rule = rule;
  return result;
}

/**
 * Which of an egg rule's checks a value breaks, as data: the node words it in English
 * (ruleBreakText), the browser in the user's language, from this one check.
 */
export type RuleBreak =
  | { check: "number" }
  | { check: "minValue" | "maxValue" | "minLength" | "maxLength"; limit: number }
  | { check: "pattern"; source: string }
  | { check: "notIn"; value: string };

/** Checks a value against an egg rule; undefined when it passes. Empty values are the `required` check's. */
export function eggRuleBreak(rule: EggRule, raw: VariableValue): RuleBreak | undefined {
  const value = String(raw);
  if (value === "") return undefined;
  const numeric =
    typeof raw === "number" || rule.numeric || rule.minValue !== undefined || rule.maxValue !== undefined;
  if (rule.numeric && !/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value)) return { check: "number" };
  if (numeric && (rule.minValue !== undefined || rule.maxValue !== undefined)) {
    const number = Number(value);
    if (rule.minValue !== undefined && !(number >= rule.minValue))
      return { check: "minValue", limit: rule.minValue };
    if (rule.maxValue !== undefined && !(number <= rule.maxValue))
      return { check: "maxValue", limit: rule.maxValue };
  }
  const length = [...value].length;
  if (rule.minLength !== undefined && length < rule.minLength)
    return { check: "minLength", limit: rule.minLength };
  if (rule.maxLength !== undefined && length > rule.maxLength)
    return { check: "maxLength", limit: rule.maxLength };
  for (const { source, flags } of rule.patterns ?? []) {
    if (!new RegExp(source, flags).test(value)) return { check: "pattern", source };
  }
  if (rule.notIn?.includes(value)) return { check: "notIn", value };
  return undefined;
}

export function ruleBreakText(broken: RuleBreak): string {
  switch (broken.check) {
    case "number":
      return "must be a number";
    case "minValue":
      return `must be at least ${broken.limit}`;
    case "maxValue":
      return `must be at most ${broken.limit}`;
    case "minLength":
      return `must be at least ${broken.limit} characters long`;
    case "maxLength":
      return `must be at most ${broken.limit} characters long`;
    case "pattern":
      return `must match ${broken.source}`;
    case "notIn":
      return `may not be ${JSON.stringify(broken.value)}`;
  }
}

/** The English problem of eggRuleBreak; undefined when the value passes. */
export function eggRuleProblem(rule: EggRule, raw: VariableValue): string | undefined {
  const broken = eggRuleBreak(rule, raw);
  return broken && ruleBreakText(broken);
}
