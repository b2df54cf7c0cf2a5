// Paths inside a server's folder, as the file manager keeps them: relative to the server's folder,
// segments joined by "/", no leading or trailing slash; "" is the server's folder itself.

/** Drops empty segments (doubled, leading or trailing slashes). */
export function normalizePath(path: string): string {
  return path
    .split("/")
    .filter((s) => s !== "")
    .join("/");
}

export function joinPath(dir: string, name: string): string {
  return normalizePath(`${dir}/${name}`);
}

export function parentPath(path: string): string {
  const p = normalizePath(path);
  const at = p.lastIndexOf("/");
  return at < 0 ? "" : p.slice(0, at);
}

export function baseName(path: string): string {
  const p = normalizePath(path);
  return p.slice(p.lastIndexOf("/") + 1);
}

/** How a path is shown: from the server's folder, with a leading slash. */
export const shownPath = (path: string) => `/${normalizePath(path)}`;

export interface Crumb {
  name: string;
  path: string;
}

/** The folders leading to `dir`, each with its own path; the server's folder itself is not one. */
export function breadcrumbs(dir: string): Crumb[] {
  const parts = normalizePath(dir).split("/").filter(Boolean);
  return parts.map((name, i) => ({ name, path: parts.slice(0, i + 1).join("/") }));
}

export type NameProblem = "empty" | "slash" | "dots" | "nul";

/** What is wrong with a new file or folder name, if anything. */
export function nameProblem(name: string): NameProblem | undefined {
  if (name === "") return "empty";
  if (name.includes("/")) return "slash";
  if (name === "." || name === "..") return "dots";
  if (name.includes("\0")) return "nul";
  return undefined;
}

/**
 * What is wrong with a typed path (a move destination, an extract folder), if anything. Doubled
 * slashes are forgiven; "." and ".." segments are not (the panel refuses climbing anyway).
 */
export function pathProblem(path: string, allowRoot = false): NameProblem | undefined {
  const segments = normalizePath(path).split("/").filter(Boolean);
  if (segments.length === 0) return allowRoot ? undefined : "empty";
  for (const s of segments) {
    const problem = nameProblem(s);
    if (problem) return problem;
  }
  return undefined;
}

/** A typed path: from the server's folder when it starts with "/", else from the current folder. */
export function resolveTyped(dir: string, typed: string): string {
  const value = typed.trim();
  return value.startsWith("/") ? normalizePath(value) : joinPath(dir, value);
}

/** The query parameter that keeps the open folder across reloads (the hash names the tab). */
export const DIR_PARAM = "path";

/** The folder named in a query string; "" (the server's folder) when absent or not a clean path. */
export function dirFromSearch(search: string): string {
  const raw = new URLSearchParams(search).get(DIR_PARAM) ?? "";
  return pathProblem(raw, true) ? "" : normalizePath(raw);
}

/** The query string with `dir` in it (or without the parameter, for the server's folder). */
export function searchWithDir(search: string, dir: string): string {
  const params = new URLSearchParams(search);
  params.delete(DIR_PARAM);
  const parts = params.toString() ? [params.toString()] : [];
  const clean = normalizePath(dir);
  // Slashes may stay as they are in a query: the address bar shows a readable path.
  if (clean) parts.push(`${DIR_PARAM}=${encodeURIComponent(`/${clean}`).replace(/%2F/g, "/")}`);
  return parts.length ? `?${parts.join("&")}` : "";
}
