import type { Guarded } from "./access";
import { buildPath, findRoute } from "./routeMatch";

// returnTo (spec §2.2, §4): the intended target is kept in session storage as route + params +
// query + hash and restored after login.

export const RETURN_TO_KEY = "returnTo";

export interface ReturnTo {
  route: string;
  params: Record<string, string>;
  query: string;
  hash: string;
}

type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The target for a location, or null for pages not worth returning to (sign-in pages, unknown). */
export function makeReturnTo(
  routes: readonly Guarded[],
  pathname: string,
  search = "",
  hash = "",
): ReturnTo | null {
  const hit = findRoute(routes, pathname);
  if (!hit || hit.route.access === "noAuth" || hit.route.path === "/") return null;
  return {
    route: hit.route.path,
    params: hit.params,
    query: search.replace(/^\?/, ""),
    hash: hash.replace(/^#/, ""),
  };
}

export function returnToUrl(target: ReturnTo): string {
  return `${buildPath(target.route, target.params)}${target.query ? `?${target.query}` : ""}${target.hash ? `#${target.hash}` : ""}`;
}

export function saveReturnTo(store: KeyValueStore, target: ReturnTo | null): void {
  if (target) store.setItem(RETURN_TO_KEY, JSON.stringify(target));
}

/** Read and forget the stored target; only known, non-sign-in routes are honoured. */
export function takeReturnTo(store: KeyValueStore, routes: readonly Guarded[]): string | null {
  const raw = store.getItem(RETURN_TO_KEY);
  store.removeItem(RETURN_TO_KEY);
  if (!raw) return null;
  try {
    const t = JSON.parse(raw) as Partial<ReturnTo>;
    if (typeof t.route !== "string" || !routes.some((r) => r.path === t.route && r.access !== "noAuth"))
      return null;
    return returnToUrl({
      route: t.route,
      params: t.params && typeof t.params === "object" ? t.params : {},
      query: typeof t.query === "string" ? t.query : "",
      hash: typeof t.hash === "string" ? t.hash : "",
    });
  } catch {
    return null;
  }
}
