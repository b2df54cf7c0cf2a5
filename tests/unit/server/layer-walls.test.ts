import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(import.meta.dirname, "../../../server");

/** Every relative import of every .ts file below `dir`, with the file that makes it. */
function importsBelow(dir: string): { file: string; target: string }[] {
  const found: { file: string; target: string }[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const source = fs.readFileSync(file, "utf8");
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      found.push({
        file: path.relative(serverDir, file),
        target: path.resolve(path.dirname(file), match[1]),
      });
    }
  }
  return found;
}

function crossing(from: string, into: string[]): string[] {
  return importsBelow(path.join(serverDir, from))
    .filter(({ target }) => into.some((wall) => target.startsWith(path.join(serverDir, wall) + path.sep)))
    .map(({ file, target }) => `${file} → ${path.relative(serverDir, target)}`);
}

// DESIGN.md: the panel reaches a node only through server/link; the engine is
// built in the composition root (server/compose.ts), never by a service.
describe("layer walls", () => {
  it("server/api imports nothing from server/daemon", () => {
    expect(crossing("api", ["daemon"])).toEqual([]);
  });

  it("server/panel imports nothing from server/daemon", () => {
    expect(crossing("panel", ["daemon"])).toEqual([]);
  });

  it("server/daemon imports nothing from server/panel, server/db or server/api", () => {
    expect(crossing("daemon", ["panel", "db", "api"])).toEqual([]);
  });
});
