import type { TemplateSummary } from "../../api/templates";

/**
 * Templates whose name or display contains the query, ignoring case (spec §7 "Other"). Only those
 * two fields are read (a copy kept offline before display was always sent may lack it).
 */
export function filterTemplates<T extends Pick<TemplateSummary, "name"> & { display?: string }>(
  list: readonly T[],
  query: string,
): T[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [...list];
  return list.filter(
    (t) => t.name.toLocaleLowerCase().includes(q) || (t.display ?? "").toLocaleLowerCase().includes(q),
  );
}

/** Local template names as the panel accepts them. */
export const TEMPLATE_NAME = /^[A-Za-z0-9._-]{1,100}$/;
