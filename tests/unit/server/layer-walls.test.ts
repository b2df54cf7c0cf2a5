import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(import.meta.dirname, "../../../server");

/** Every .ts file below server/ → the files it imports (relative imports, `import type` too). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const entry of fs.readdirSync(serverDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const source = fs.readFileSync(file, "utf8");
    const targets = [...source.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) =>
      path.resolve(path.dirname(file), m[1]),
    );
    graph.set(file, targets);
  }
  return graph;
}

const graph = importGraph();
const inside = (file: string, dir: string) => file.startsWith(path.join(serverDir, dir) + path.sep);
const name = (file: string) => path.relative(serverDir, file);

/**
 * Every import chain from a file in `from` that reaches a file in one of `into`, followed through
 * any module on the way (a neutral module that imports the daemon is a door through the wall).
 * `through` lists files a chain may not pass (the one sanctioned door, checked on its own).
 */
function crossing(from: string, into: string[], through: string[] = []): string[] {
  const found: string[] = [];
  const stop = new Set(through.map((f) => path.join(serverDir, f)));
  for (const start of graph.keys()) {
    if (!inside(start, from) || stop.has(start)) continue;
    const seen = new Set([start]);
    const queue: string[][] = [[start]];
    while (queue.length) {
      const chain = queue.shift() as string[];
      for (const next of graph.get(chain.at(-1) as string) ?? []) {
        if (seen.has(next) || stop.has(next)) continue;
        seen.add(next);
        if (into.some((wall) => inside(next, wall))) {
          found.push([...chain, next].map(name).join(" → "));
          continue;
        }
        queue.push([...chain, next]);
      }
    }
  }
  return found;
}

// DESIGN.md: the panel reaches a node only through server/link; the engine is built in the
// composition root (server/compose.ts), never by a service. Imports are followed transitively.
describe("layer walls", () => {
  it("server/api imports nothing from server/daemon, directly or through another module", () => {
    expect(crossing("api", ["daemon"])).toEqual([]);
  });

  it("server/panel imports nothing from server/daemon, directly or through another module", () => {
    expect(crossing("panel", ["daemon"])).toEqual([]);
  });

  it("server/daemon imports nothing from server/panel, server/db, server/api or server/link", () => {
    expect(crossing("daemon", ["panel", "db", "api", "link"])).toEqual([]);
  });

  it("server/link imports nothing from server/daemon: LocalNode gets the engine as a NodeEngine", () => {
    expect(crossing("link", ["daemon"])).toEqual([]);
  });

  // server/http is the neutral half both the panel and the daemon use; the panel's own request
  // pipeline (guard, XSRF, cookies, activity, web app) lives in server/api/pipeline.
  it("server/http imports nothing from server/api, server/panel, server/link, server/db or server/daemon", () => {
    expect(crossing("http", ["api", "panel", "link", "db", "daemon"])).toEqual([]);
  });

  it("server/daemon imports nothing from the panel's request pipeline (server/api/pipeline)", () => {
    expect(crossing("daemon", ["api/pipeline"])).toEqual([]);
  });
});
