import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// One contract between browser, panel and node: each shape is declared once, the browser takes
// server code as types only (or values from the browser-safe modules), and those modules stay
// free of Node. Sibling of layer-walls.test.ts, which walls the server's own layers.

const root = path.resolve(import.meta.dirname, "../../..");
const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * The modules the browser may take values from: the contract's browser-safe files, and the
 * template module (server/templates/, pure by design: the browser checks and renders templates
 * with it). Everything they import, followed through, is checked by the third rule.
 */
const browserSafe = [
  "server/contract/constants.ts",
  "server/contract/scopes.ts",
  "server/contract/discord-hook.ts",
  "server/contract/api/",
  "server/contract/node/console-messages.ts",
  "server/templates/",
];
const isBrowserSafe = (file: string) =>
  browserSafe.some((entry) => (entry.endsWith("/") ? rel(file).startsWith(entry) : rel(file) === entry));

/** Packages a browser-safe module may import: they run in a browser. */
const browserPackages = new Set(["typebox", "js-yaml", "@marcbachmann/cel-js", "croner"]);
/** Server folders that are Node's only (sockets, files, the database, processes). */
const nodeOnlyDirs = ["api", "panel", "db", "daemon", "link", "http", "net", "secrets", "cli"];

interface Import {
  /** The specifier as written. */
  spec: string;
  /** Resolved file for a relative specifier. */
  file?: string;
  /** `import type` / `export type … from`, or `typeof import(…)`: erased from the built code. */
  typeOnly: boolean;
}

/** Every import of a file: static imports and re-exports, and dynamic `import(…)`. */
function importsOf(file: string): Import[] {
  const source = fs.readFileSync(file, "utf8");
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean) =>
    found.push({ spec, typeOnly, file: spec.startsWith(".") ? resolve(file, spec) : undefined });
  for (const m of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^;"]*?\bfrom\s*"([^"]+)"/gm))
    add(m[3], Boolean(m[2]));
  for (const m of source.matchAll(/^\s*import\s*"([^"]+)"/gm)) add(m[1], false);
  for (const m of source.matchAll(/(typeof\s+)?\bimport\(\s*"([^"]+)"\s*\)/g)) add(m[2], Boolean(m[1]));
  return found;
}

function resolve(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return base;
}

const serverFiles = sourceFiles("server");
const browserFiles = [...sourceFiles("src"), ...sourceFiles("sw")];

/**
 * The rule for "a shape": an exported `interface X`, an exported `type X = …`, or an exported
 * `const X = Type.…` (a TypeBox schema). A schema and its `type X = Static<typeof X>` beside it in
 * the same file are one shape. A name exported as a shape from two files is a duplicate, whether
 * the shapes agree or not: one is the copy (import it), or the names say two things (rename one).
 * Re-exports (`export type { X }`) declare nothing.
 */
function shapeDeclarations(files: string[]): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const source = fs.readFileSync(file, "utf8");
    const names = new Set<string>();
    for (const m of source.matchAll(/^export\s+(?:declare\s+)?(?:interface|type)\s+([A-Za-z_$][\w$]*)/gm))
      names.add(m[1]);
    for (const m of source.matchAll(/^export\s+const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*Type\./gm))
      names.add(m[1]);
    for (const name of names) byName.set(name, [...(byName.get(name) ?? []), rel(file)]);
  }
  return byName;
}

function duplicateShapes(files: string[]): string[] {
  return [...shapeDeclarations(files)]
    .filter(([, where]) => where.length > 1)
    .map(([name, where]) => `${name}: ${where.join(", ")}`)
    .sort();
}

/** Value imports of server code by the browser that do not come from a browser-safe module. */
function browserValueImports(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files)
    for (const imp of importsOf(file)) {
      if (imp.typeOnly || !imp.file || !rel(imp.file).startsWith("server/")) continue;
      if (!isBrowserSafe(imp.file)) found.push(`${rel(file)} → ${rel(imp.file)}`);
    }
  return found.sort();
}

/** Node-only imports reached from the browser-safe modules, type imports too, with the chain. */
function nodeOnlyReach(starts: string[]): string[] {
  const found: string[] = [];
  const seen = new Set(starts);
  const queue = starts.map((file) => [file]);
  while (queue.length) {
    const chain = queue.shift() as string[];
    for (const imp of importsOf(chain.at(-1) as string)) {
      const where = [...chain.map(rel), imp.file ? rel(imp.file) : imp.spec].join(" → ");
      if (!imp.file) {
        // A type of a package (Node's `Readable` in a seam's signature) is erased from what runs.
        if (imp.typeOnly) continue;
        const pkg = imp.spec.startsWith("@")
          ? imp.spec.split("/").slice(0, 2).join("/")
          : imp.spec.split("/")[0];
        if (!browserPackages.has(pkg)) found.push(where);
        continue;
      }
      const inServer = rel(imp.file).startsWith("server/");
      if (inServer && nodeOnlyDirs.some((dir) => rel(imp.file as string).startsWith(`server/${dir}/`))) {
        found.push(where);
        continue;
      }
      if (seen.has(imp.file)) continue;
      seen.add(imp.file);
      queue.push([...chain, imp.file]);
    }
  }
  return found.sort();
}

describe("contract walls", () => {
  it("declares each exported shape name once in server/, src/ and sw/", () => {
    expect(duplicateShapes([...serverFiles, ...browserFiles])).toEqual([]);
  });

  it("src/ and sw/ take server code as `import type` only, or values from the browser-safe modules", () => {
    expect(browserValueImports(browserFiles)).toEqual([]);
  });

  it("the browser-safe modules import nothing Node-only (node:*, a server package, a server layer)", () => {
    expect(nodeOnlyReach(serverFiles.filter(isBrowserSafe))).toEqual([]);
  });

  // The rules themselves, on made-up sources, so that a rule that matches nothing cannot pass.
  it("the rules see what they are meant to see", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "contract-walls-"));
    try {
      const write = (name: string, text: string) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        return file;
      };
      const a = write("a.ts", "export interface Shape { a: 1 }\nexport const Schema = Type.Object({});\n");
      const b = write(
        "b.ts",
        "export type Shape = { b: 2 };\nexport const Schema = Type.Object({});\nexport type Schema = Static<typeof Schema>;\n",
      );
      expect(duplicateShapes([a, b]).map((d) => d.split(":")[0])).toEqual(["Schema", "Shape"]);
      const panel = path.relative(dir, path.join(root, "server/panel/scopes.ts"));
      const contract = path.relative(dir, path.join(root, "server/contract/scopes.ts"));
      const c = write(
        "c.ts",
        `import type { X } from "${panel}";\nimport { serverScopes } from "${contract}";\nimport { holdsScope } from "${panel}";\nconst m = import("${panel}");\n`,
      );
      expect(browserValueImports([c]).length).toBe(2);
      const d = write("d.ts", `import { readFile } from "node:fs";\nimport type { X } from "${panel}";\n`);
      expect(nodeOnlyReach([d]).length).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
