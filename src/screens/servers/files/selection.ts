import type { FileEntry } from "../../../api/files";

// The listing's selection (the check boxes): a set of names in the folder shown.

export type Selection = ReadonlySet<string>;

export const NOTHING: Selection = new Set();

/** Only the names still there: the same set when none went away (no re-render). */
export function keepPresent(selected: Selection, names: ReadonlySet<string>): Selection {
  const kept = new Set([...selected].filter((n) => names.has(n)));
  return kept.size === selected.size ? selected : kept;
}

/** One name checked or unchecked. */
export function toggled(selected: Selection, name: string, on: boolean): Selection {
  const next = new Set(selected);
  if (on) next.add(name);
  else next.delete(name);
  return next;
}

/** Every entry but the way up, or none. */
export function allOrNone(entries: readonly FileEntry[], on: boolean): Selection {
  return on ? new Set(entries.filter((e) => e.name !== "..").map((e) => e.name)) : NOTHING;
}
