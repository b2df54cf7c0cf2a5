import { environmentsOf, type Template, type VariableValue } from "../../templates/index.ts";
import { canonicalJson } from "./canonical-json.ts";

/**
 * The template a non-administrator's server definition was made from, rebuilt from the template
 * as it is stored; undefined when none of `vouched` (the templates an administrator vouched for)
 * is it. The definition must be the template's in every part but those a creator picks:
 * variable values (of the template's own variables) and the environment, one the template offers.
 */
export async function vouchedTemplateIn(
  definition: Record<string, unknown>,
  vouched: AsyncIterable<Template>,
): Promise<Template | undefined> {
  const { environment, data, ...code } = withoutPanelFields(definition);
  const wanted = canonicalJson(code);
  for await (const template of vouched) {
    const { environment: _e, data: _d, ...templateCode } = withoutPanelFields(template);
    if (canonicalJson(templateCode) !== wanted) continue;
    const chosen =
      environment === undefined
        ? template.environment
        : environmentsOf(template).find((offered) => canonicalJson(offered) === canonicalJson(environment));
    const values = valuesOf(data, template);
    if (chosen === undefined || values === undefined) continue;
    // An egg's hidden variables (user_viewable: false) keep the template's values: they are the
    // administrators' to set (hidden-variables.ts), from the server's creation on.
    const hidden = template.egg?.hidden ?? [];
    if (
      hidden.some(
        (key) => key in values && canonicalJson(values[key]) !== canonicalJson(template.data[key]?.value),
      )
    )
      continue;
    const variables = Object.fromEntries(
      Object.entries(template.data).map(([key, variable]) => [
        key,
        key in values ? { ...variable, value: values[key] } : variable,
      ]),
    );
    return {
      ...(templateCode as Omit<Template, "environment" | "data">),
      environment: chosen,
      data: variables,
    };
  }
  return undefined;
}

/** A template fetched for server creation carries the panel's own fields; they are not part of it. */
export function stripPanelFields(body: unknown): unknown {
  if (!body || typeof body !== "object") return body;
  const { name: _n, readme: _r, node: _no, users: _u, id: _i, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** A definition or template without the panel's fields and the limits (administrators' alone, set apart). */
function withoutPanelFields(body: object): Record<string, unknown> {
  const { limits: _l, ...rest } = stripPanelFields(body) as Record<string, unknown>;
  return rest;
}

/**
 * A definition's variable values (`{name: value}` or `{name: {value, …}}`, as either client sends
 * them), all of them the template's own variables and plain values; undefined otherwise.
 */
function valuesOf(data: unknown, template: Template): Record<string, VariableValue> | undefined {
  if (data === undefined) return {};
  if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
  const values: Record<string, VariableValue> = {};
  for (const [key, given] of Object.entries(data)) {
    if (!Object.hasOwn(template.data, key)) return undefined;
    const value = given && typeof given === "object" && !Array.isArray(given) ? given.value : given;
    if (value !== null && !["string", "number", "boolean"].includes(typeof value)) return undefined;
    values[key] = value ?? "";
  }
  return values;
}
