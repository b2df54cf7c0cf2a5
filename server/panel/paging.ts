/** Paged lists (reference §1.2): 1-based pages, 20 by default, never more than 100. */
export const pageSizeDefault = 20;
export const pageSizeMax = 100;

/** The page asked for, with its size clamped, and the rows to skip. */
export function pageOf(query: { page?: number; limit?: number }): {
  page: number;
  pageSize: number;
  offset: number;
} {
  const pageSize = Math.min(query.limit ?? pageSizeDefault, pageSizeMax);
  const page = query.page ?? 1;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** SQL LIKE pattern from the API's `*` wildcards, with LIKE's own wildcards taken literally. */
export function likePattern(search: string): string {
  return search
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replaceAll("*", "%");
}
