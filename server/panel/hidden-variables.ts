import { ApiError } from "../errors.ts";
import type { Group, Template, VariableValue } from "../templates/index.ts";
import { canonicalJson } from "./templates/canonical-json.ts";

/**
 * The variables an imported egg hides from the server's users (`user_viewable: false`,
 * kept as `egg.hidden`): as in Pterodactyl, only administrators read or set them (a licence
 * key, an operator's region). Every read and write of a server's variables by anyone else
 * goes through here: the data and definition reads drop them, value writes naming one are
 * refused, and a definition written back without them keeps them.
 */

const notEditable = (field: string) =>
  new ApiError(403, "ErrVariableNotEditable", "${field} may only be changed by an administrator", {
    field,
  });

export function hiddenNames(definition: Pick<Template, "egg">): Set<string> {
  return new Set(definition.egg?.hidden ?? []);
}

/** The variables without the hidden ones. */
export function withoutHiddenData<T extends Record<string, unknown>>(data: T, hidden: Set<string>): T {
  if (hidden.size === 0) return data;
  return Object.fromEntries(Object.entries(data).filter(([name]) => !hidden.has(name))) as T;
}

/** A definition as a non-administrator reads it: no hidden variable, nor its name in a group. */
export function withoutHidden(definition: Template): Template {
  const hidden = hiddenNames(definition);
  if (hidden.size === 0) return definition;
  const shown = { ...definition, data: withoutHiddenData(definition.data, hidden) };
  if (definition.groups) shown.groups = withoutHiddenGroups(definition.groups, hidden);
  return shown;
}

export function withoutHiddenGroups(groups: Group[], hidden: Set<string>): Group[] {
  if (hidden.size === 0) return groups;
  return groups.map((group) => ({
    ...group,
    variables: (group.variables ?? []).filter((name) => !hidden.has(name)),
  }));
}

/** Refuses values a non-administrator sets when one names a hidden variable. */
export function refuseHiddenValues(values: Record<string, VariableValue>, hidden: Set<string>): void {
  for (const name of Object.keys(values)) if (hidden.has(name)) throw notEditable(name);
}

/**
 * A non-administrator's new definition with the stored hidden variables put back: left out
 * (as their read gave it) they are kept; given with another value or shape, refused.
 */
export function keepHidden(body: Record<string, unknown>, stored: Template): Record<string, unknown> {
  const hidden = hiddenNames(stored);
  if (hidden.size === 0) return body;
  const given =
    body.data && typeof body.data === "object" && !Array.isArray(body.data)
      ? (body.data as Record<string, unknown>)
      : {};
  const data: Record<string, unknown> = { ...given };
  for (const name of hidden) {
    const kept = stored.data[name];
    if (Object.hasOwn(given, name) && canonicalJson(given[name]) !== canonicalJson(kept ?? null))
      throw notEditable(name);
    if (kept) data[name] = kept;
  }
  return { ...body, data };
}
