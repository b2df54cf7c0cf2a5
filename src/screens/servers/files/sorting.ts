import type { FileEntry } from "../../../api/files";

export type SortKey = "name" | "size" | "modified";

export interface SortOrder {
  key: SortKey;
  descending: boolean;
}

const defaultCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/**
 * The listing as shown: ".." first, then folders, then files; within each, by the chosen column
 * (names break ties). Folders have no size, so by size they stay in name order.
 */
export function sortEntries(
  entries: readonly FileEntry[],
  order: SortOrder,
  compareNames: (a: string, b: string) => number = defaultCollator.compare,
): FileEntry[] {
  const sign = order.descending ? -1 : 1;
  const byName = (a: FileEntry, b: FileEntry) => compareNames(a.name, b.name) || (a.name < b.name ? -1 : 1);
  const byColumn = (a: FileEntry, b: FileEntry): number => {
    if (order.key === "size" && a.isFile && b.isFile) return (a.size ?? 0) - (b.size ?? 0);
    if (order.key === "modified") return (a.modifyTime ?? 0) - (b.modifyTime ?? 0);
    return 0;
  };
  const rank = (e: FileEntry) => (e.name === ".." && !e.isFile ? 0 : e.isFile ? 2 : 1);
  return [...entries].sort((a, b) => {
    const r = rank(a) - rank(b);
    if (r !== 0) return r;
    if (a.name === b.name) return 0;
    return sign * (byColumn(a, b) || byName(a, b));
  });
}
