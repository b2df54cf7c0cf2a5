// Path patterns like /servers/view/:id. Pure, so the guard, returnTo and tests share it.

function split(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** Params when `pathname` matches `pattern` (trailing slash ignored), else null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = split(pattern);
  const got = split(pathname);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    if (w.startsWith(":")) {
      try {
        params[w.slice(1)] = decodeURIComponent(got[i]);
      } catch {
        return null;
      }
    } else if (w !== got[i]) return null;
  }
  return params;
}

export function buildPath(pattern: string, params: Record<string, string> = {}): string {
  const parts = split(pattern).map((seg) =>
    seg.startsWith(":") ? encodeURIComponent(params[seg.slice(1)] ?? "") : seg,
  );
  return `/${parts.join("/")}`;
}

/** First route whose pattern matches (static routes are listed before parametric ones). */
export function findRoute<R extends { path: string }>(
  routes: readonly R[],
  pathname: string,
): { route: R; params: Record<string, string> } | null {
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}
