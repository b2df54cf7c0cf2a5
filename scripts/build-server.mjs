#!/usr/bin/env node
// Part of `npm run build`: the server compiled ahead of time with esbuild, so
// that starting it needs no TypeScript compiler (tsx) and less memory.
// - dist-server/outpost.mjs: the `outpost` command (panel, daemon, CLI); its
//   npm dependencies stay in node_modules (but for a few, see bundledPackages). bin/outpost.mjs runs it while it is
//   newer than every file in server/, else the TypeScript sources through tsx.
// - dist-daemon/outpost-daemon.mjs: the daemon alone with every JavaScript
//   dependency inside, so a node's host needs only Node.js (no checkout, no
//   npm install). The panel serves it at GET /daemon/bundle to a node that
//   shows its secret.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const common = { bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "warning" };

// Bundled into the panel's build, trimmed to what the server uses: ES-module
// packages that would otherwise load as thousands of files at start (typebox
// alone is 1 427 modules, kysely 974), each kept in memory with its source.
// Bundling the CommonJS ones too was tried: the idle panel then held more.
const bundledPackages = ["typebox", "kysely", "@marcbachmann/cel-js"];
const { dependencies, devDependencies } = JSON.parse(
  fs.readFileSync(path.join(root, "package.json"), "utf8"),
);
const panel = path.join(root, "dist-server", "outpost.mjs");
await build({
  ...common,
  entryPoints: [path.join(root, "server", "main.ts")],
  outfile: panel,
  external: Object.keys({ ...dependencies, ...devDependencies }).filter(
    (name) => !bundledPackages.includes(name),
  ),
  sourcemap: "linked",
});

const daemon = path.join(root, "dist-daemon", "outpost-daemon.mjs");
await build({
  ...common,
  entryPoints: [path.join(root, "server", "cli", "daemon-bundle.ts")],
  outfile: daemon,
  minifySyntax: true,
  legalComments: "linked",
  define: { __OUTPOST_VERSION__: JSON.stringify(version) },
  // CommonJS dependencies use require(), __filename and __dirname: give the ES module them.
  banner: {
    js: [
      "#!/usr/bin/env node",
      "import { createRequire as __outpostCreateRequire } from 'node:module';",
      "import { fileURLToPath as __outpostFileUrlToPath } from 'node:url';",
      "import { dirname as __outpostDirname } from 'node:path';",
      "const require = __outpostCreateRequire(import.meta.url);",
      "const __filename = __outpostFileUrlToPath(import.meta.url);",
      "const __dirname = __outpostDirname(__filename);",
    ].join("\n"),
  },
  // ssh2's optional native speed-ups: it falls back to JavaScript when they are absent.
  external: ["cpu-features", "*.node"],
});

// V8 keeps every script's source in memory, as one byte per character only
// when all of it is Latin-1: a single "—" left in a comment of a dependency
// doubled the daemon bundle's 5.7 MB to 11.6 MB of heap. esbuild escapes
// non-ASCII text in strings but not in the comments it keeps, nor always in
// regular expressions; each such UTF-16 unit becomes \uXXXX, which means the
// same in strings, templates, regular expressions and identifiers, and
// nothing in comments. (The source maps' columns move by a few characters on
// those lines.)
for (const file of [panel, daemon]) {
  const text = fs.readFileSync(file, "utf8");
  const ascii = text.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  if (ascii !== text) fs.writeFileSync(file, ascii, { mode: fs.statSync(file).mode });
}

for (const file of [panel, daemon]) {
  const size = fs.statSync(file).size;
  console.log(`server build: ${path.relative(root, file)} (${(size / 1024 / 1024).toFixed(1)} MiB)`);
}
