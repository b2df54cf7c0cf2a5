import { describe, expect, it } from "vitest";
import { readRules } from "../../../server/templates/egg-rules.ts";
import { checkVariableValue, type Variable } from "../../../server/templates/index.ts";

/**
 * An egg variable's Laravel rules as one check shared by the node (its refusal, in English) and
 * the browser (the wizard and the variables editor say it in the user's language): what a value
 * breaks comes back as data (`broken`) beside the English problem.
 */
function variableOf(rules: string | string[], value: string) {
  const read = readRules(rules, value);
  const variable: Variable = { type: read.type, value: read.value, required: read.required };
  if (read.options) variable.options = read.options;
  return { variable, rule: read.rule, required: read.required };
}

const check = (rules: string | string[], given: unknown, value = "") => {
  const { variable, rule } = variableOf(rules, value);
  return checkVariableValue(variable, given, rule);
};

describe("egg rules, checked as the node and the browser do", () => {
  it("reads required and leaves an empty value to it", () => {
    expect(variableOf("required|string", "x").required).toBe(true);
    expect(variableOf("nullable|string", "x").required).toBe(false);
    expect(check("required|string|max:3", "")).toEqual({ ok: true, value: "" });
  });

  it("checks integer, between, min and max as numbers", () => {
    expect(check("required|integer|between:1,100", "50", "10")).toEqual({ ok: true, value: 50 });
    expect(check("required|integer|between:1,100", "0", "10")).toMatchObject({
      ok: false,
      problem: "must be at least 1",
      broken: { check: "minValue", limit: 1 },
    });
    expect(check("required|integer|between:1,100", 101, "10")).toMatchObject({
      broken: { check: "maxValue", limit: 100 },
    });
    expect(check("required|integer|min:2", "1.5", "2")).toMatchObject({
      ok: false,
      broken: { check: "type", type: "integer" },
    });
    expect(check("numeric|max:2.5", "2.6")).toMatchObject({ broken: { check: "maxValue", limit: 2.5 } });
    expect(check("numeric|max:2.5", "two")).toMatchObject({ broken: { check: "number" } });
  });

  it("checks min and max of a string as its length in characters", () => {
    expect(check("required|string|min:3|max:5", "ab")).toMatchObject({
      broken: { check: "minLength", limit: 3 },
    });
    expect(check("required|string|min:3|max:5", "abcdef")).toMatchObject({
      problem: "must be at most 5 characters long",
      broken: { check: "maxLength", limit: 5 },
    });
    // Characters, not UTF-16 units: "ééé" is three.
    expect(check("string|max:3", "ééé").ok).toBe(true);
  });

  it("checks in: as a choice of options and boolean as a switch", () => {
    expect(check("required|in:easy,hard", "easy", "easy")).toEqual({ ok: true, value: "easy" });
    expect(check("required|in:easy,hard", "medium", "easy")).toMatchObject({ broken: { check: "option" } });
    expect(check("required|boolean", "true", "false")).toEqual({ ok: true, value: true });
    expect(check("required|boolean", "maybe", "false")).toMatchObject({
      broken: { check: "type", type: "boolean" },
    });
  });

  it("checks regex: with the egg's pattern, a PCRE literal with its bars", () => {
    const rules = "required|regex:/^(release|snapshot|[0-9]+\\.[0-9]+)$/";
    expect(check(rules, "snapshot", "release")).toEqual({ ok: true, value: "snapshot" });
    expect(check(rules, "1.20", "release")).toEqual({ ok: true, value: "1.20" });
    expect(check(rules, "beta", "release")).toMatchObject({
      ok: false,
      broken: { check: "pattern", source: "^(release|snapshot|[0-9]+\\.[0-9]+)$" },
    });
    expect(check(["nullable", "not_in:admin,root"], "root")).toMatchObject({
      broken: { check: "notIn", value: "root" },
    });
  });

  it("refuses a line break whatever the rules", () => {
    expect(check("nullable|string", "a\nb")).toMatchObject({ ok: false, broken: { check: "control" } });
  });
});
