import { Environment, type ParseResult } from "@marcbachmann/cel-js";
import { templateErrors } from "./errors.ts";
import { readString } from "./fields.ts";
import type { Problems } from "./problems.ts";
import type { VariableValue } from "./types.ts";

/**
 * CEL `if` conditions on operations, run command entries and groups
 * (templates.md §3). The two functions that touch the host are injected, so
 * this module stays pure and also runs in the browser (groups are evaluated
 * by the UI, where neither function exists).
 */
export interface ConditionFunctions {
  /** `file_exists(path)`: path relative to the server directory. */
  fileExists?(path: string): boolean;
  /** `in_path(binary)`: the program is found on PATH. */
  inPath?(binary: string): boolean;
}

/** Values visible to a condition, by name (built by conditionScope in context.ts). */
export type ConditionScope = Record<string, VariableValue>;

const cacheLimit = 500;

export class ConditionEvaluator {
  private env: Environment | undefined;
  private readonly parsed = new Map<string, ParseResult>();

  constructor(private readonly functions: ConditionFunctions = {}) {}

  /**
   * Made with the first condition that is not empty: most templates have none, and the
   * daemon bundle loads the CEL library only then (scripts/build-server.mjs).
   */
  private environment(): Environment {
    if (this.env) return this.env;
    const host =
      <K extends keyof ConditionFunctions>(key: K, name: string) =>
      (argument: string): boolean => {
        const fn = this.functions[key];
        if (!fn) throw new Error(`${name}() is not available here`);
        return fn(argument);
      };
    // Variables are not declared up front: a template's names are only known per
    // template, and an unknown one is reported when it is actually read.
    this.env = new Environment({ unlistedVariablesAreDyn: true })
      .registerFunction("file_exists(string): bool", host("fileExists", "file_exists"))
      .registerFunction("in_path(string): bool", host("inPath", "in_path"));
    return this.env;
  }

  /** True when the condition holds; an empty or missing condition always holds. */
  evaluate(condition: string | undefined, scope: ConditionScope): boolean {
    if (!condition?.trim()) return true;
    let result: unknown;
    try {
      result = this.compile(condition)(celValues(scope));
    } catch (error) {
      throw templateErrors.condition(condition, firstLine(error));
    }
    if (typeof result !== "boolean") {
      throw templateErrors.condition(condition, `gave ${typeof result}, not a boolean`);
    }
    return result;
  }

  /** Why a condition cannot work (syntax, unknown function, not boolean), or undefined. */
  check(condition: string): string | undefined {
    if (!condition.trim()) return undefined;
    try {
      const checked = this.compile(condition).check();
      if (!checked.valid) return firstLine(checked.error);
      if (checked.type !== "bool" && checked.type !== "dyn") return `gives ${checked.type}, not a boolean`;
      return undefined;
    } catch (error) {
      return firstLine(error);
    }
  }

  private compile(condition: string): ParseResult {
    let program = this.parsed.get(condition);
    if (!program) {
      program = this.environment().parse(condition);
      if (this.parsed.size >= cacheLimit) this.parsed.clear();
      this.parsed.set(condition, program);
    }
    return program;
  }
}

/** CEL integers are 64-bit ints (BigInt here); template integers are JSON numbers. */
function celValues(scope: ConditionScope): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(scope)) {
    values[name] = typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value;
  }
  return values;
}

/** The library's messages carry a source excerpt after the first line. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0];
}

const shared = new ConditionEvaluator();

/** An evaluator without host functions: validation, and the UI's groups. */
export function defaultConditionEvaluator(): ConditionEvaluator {
  return shared;
}

/** Reads an `if` field, recording a problem when the expression cannot work. */
export function readCondition(value: unknown, path: string, problems: Problems): string | undefined {
  const condition = readString(value, path, problems);
  const problem = condition === undefined ? undefined : shared.check(condition);
  if (problem) problems.push({ path, problem: `condition: ${problem}` });
  return condition;
}
