import { t } from "@lingui/core/macro";
import type { EggRule, Group, Variable, VariableValue } from "../../../server/templates/index.ts";
import type { TemplateKit } from "./templateKit";
import { valueProblemText } from "./valueProblem";

// The variables of a template or server as the forms show and check them (spec §2.3: settings
// step and server settings). Group `if` conditions are CEL, evaluated against the values being edited.

export type Values = Record<string, VariableValue>;

/** Template help texts may hold HTML: shown as plain text, tags removed. */
export function plainText(html: string | undefined): string {
  return (html ?? "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}

export interface ShownGroup {
  key: string;
  display?: string;
  description?: string;
  names: string[];
}

/**
 * The groups to show, in order, with the variables each shows: hidden groups hide their
 * variables; variables in no group come last; internal ones never show.
 */
export function shownGroups(
  kit: TemplateKit | undefined,
  data: Record<string, Variable>,
  groups: readonly Group[] | undefined,
  values: Values,
  /** The environment type for `env` in conditions; unknown leaves it out (its conditions show their group). */
  env: string | undefined,
): ShownGroup[] {
  const all = groups ?? [];
  const scope: Values = env === undefined ? { ...values } : { ...values, env };
  const visible = kit
    ? kit.visibleGroups(all, scope)
    : [...all].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const usable = (name: string) => data[name] !== undefined && !data[name].internal;
  const grouped = new Set(all.flatMap((g) => g.variables ?? []));
  const shown: ShownGroup[] = visible.map((g, i) => ({
    key: `${i}:${g.display ?? ""}`,
    display: g.display,
    description: g.description,
    names: (g.variables ?? []).filter(usable),
  }));
  const rest = Object.keys(data).filter((n) => !grouped.has(n) && usable(n));
  if (rest.length)
    shown.push({ key: "rest", display: shown.length ? t`Other settings` : undefined, names: rest });
  return shown.filter((g) => g.names.length > 0);
}

/** Typed values (integers as numbers, booleans as booleans) and a message per field that is wrong. */
export function checkValues(
  kit: TemplateKit,
  data: Record<string, Variable>,
  values: Values,
  names: readonly string[],
  /** An imported egg's rules (`egg.rules`): checked here as the node checks them. */
  rules?: Record<string, EggRule>,
): { values: Values; errors: Record<string, string> } {
  const typed: Values = {};
  const errors: Record<string, string> = {};
  const shown = new Set(names);
  for (const [name, variable] of Object.entries(data)) {
    const raw = values[name] ?? variable.value;
    // The node's own check: type, options, no line breaks, the egg's rules.
    const coerced = kit.checkVariableValue(variable, raw, rules?.[name]);
    if (!coerced.ok) {
      if (shown.has(name)) errors[name] = valueProblemText(coerced.broken);
      typed[name] = variable.value;
      continue;
    }
    typed[name] = coerced.value;
    const blank = String(raw ?? "").trim() === "";
    if (variable.required && blank && shown.has(name) && variable.type !== "boolean") {
      errors[name] = t`This field is required`;
    }
  }
  return { values: typed, errors };
}
