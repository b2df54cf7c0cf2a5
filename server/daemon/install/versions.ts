/**
 * Version order for picking the newest build (NeoForge's Maven list, the
 * Forge libraries folder), close to the Go panel's go-version: numeric
 * dot-separated parts compared as numbers, a `-pre` suffix sorting before
 * the same version without one.
 */
export function compareVersions(a: string, b: string): number {
  const [mainA, preA] = split(a);
  const [mainB, preB] = split(b);
  const length = Math.max(mainA.length, mainB.length);
  for (let i = 0; i < length; i++) {
    const diff = (mainA[i] ?? 0) - (mainB[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return Math.sign(preA.localeCompare(preB, "en", { numeric: true }));
}

function split(version: string): [number[], string | undefined] {
  const text = version.replace(/^v/i, "");
  const dash = text.indexOf("-");
  const main = dash === -1 ? text : text.slice(0, dash);
  const pre = dash === -1 ? undefined : text.slice(dash + 1);
  return [main.split(/[.+]/).map((part) => Number.parseInt(part, 10) || 0), pre];
}

export function newest(versions: readonly string[]): string | undefined {
  return [...versions].sort(compareVersions).pop();
}
