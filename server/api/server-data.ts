import type { VariableValue } from "../templates/index.ts";

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * `{data: {name: value | {value}}}` or the flat `{name: value | {value}}` → values. A body whose
 * only key is `data` holding a map is the wrapped form; so a flat update of one variable that is
 * itself named "data" must use the wrapped form (`{data: {data: …}}`).
 */
export function dataValues(body: Record<string, unknown>): Record<string, VariableValue> {
  const keys = Object.keys(body);
  const wrapped = keys.length === 1 && keys[0] === "data" && isMap(body.data);
  const data = wrapped ? (body.data as Record<string, unknown>) : body;
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [
      k,
      (isMap(v) ? (v as { value: unknown }).value : v) as VariableValue,
    ]),
  );
}
