import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../repo-root.ts";

/** x.y.z compared part by part (a pre-release suffix is ignored). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split("-")[0]
      .split(".")
      .map((n) => Number(n) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * The "Upgrading:" lines of CHANGELOG.md for the releases after `from` up to `to`, oldest first,
 * each with its version: what an operator must do or will see.
 */
export function upgradeNotes(from: string, to: string, changelog = readChangelog()): string[] {
  const notes: { version: string; text: string }[] = [];
  let version: string | undefined;
  for (const line of changelog.split("\n")) {
    const heading = /^## \[(\d+\.\d+\.\d+[^\]]*)\]/.exec(line);
    if (heading) version = heading[1];
    else if (line.startsWith("## ")) version = undefined;
    const note = /^- Upgrading: (.+)$/.exec(line);
    if (note && version && compareVersions(version, from) > 0 && compareVersions(version, to) <= 0)
      notes.push({ version, text: note[1] });
  }
  // Stable: a release's own lines keep their order.
  notes.sort((a, b) => compareVersions(a.version, b.version));
  return notes.map((n) => `${n.version}: ${n.text}`);
}

function readChangelog(): string {
  try {
    return fs.readFileSync(path.join(repoRoot, "CHANGELOG.md"), "utf8");
  } catch {
    return "";
  }
}
