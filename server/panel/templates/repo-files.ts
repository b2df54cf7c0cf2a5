/** What an archive of a template repository may hold: a repository is small text. */
export const archiveLimits = { fileBytes: 1024 * 1024, totalBytes: 64 * 1024 * 1024 };

/**
 * A repository file worth keeping: `<folder>/<name>.json`, an egg's `.yaml`/`.yml`, or a README.md,
 * at any depth below the top.
 */
export function isRepoFile(entryPath: string): boolean {
  const parts = entryPath.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length < 2 || parts.some((p) => p === "..")) return false;
  const name = parts[parts.length - 1];
  return /\.(json|ya?ml)$/.test(name) || name === "README.md";
}
