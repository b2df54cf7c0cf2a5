#!/usr/bin/env node
// Part of `npm run build`: the server compiled ahead of time with esbuild, so
// that starting it needs no TypeScript compiler (tsx) and less memory.
// - dist-server/outpost.mjs: the `outpost` command (panel, daemon, CLI), with
//   chunks beside it that load on first use; its npm dependencies stay in
//   node_modules (but for a few, see bundledPackages). bin/outpost.mjs runs it
//   while it is newer than every file in server/, else the TypeScript sources
//   through tsx.
// - dist-daemon/outpost-daemon.mjs: the daemon alone with every JavaScript
//   dependency inside, so a node's host needs only Node.js (no checkout, no
//   npm install). The panel serves it at GET /daemon/bundle to a node that
//   shows its secret.
import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
// Minified: V8 keeps every loaded script's source in memory, and a smaller one
// also parses with less memory (daemon bundle 5.7 -> 3.1 MB, 72 -> 64 MiB at
// idle). Names are minified too; the source map written beside each build
// (never loaded unless NODE_OPTIONS=--enable-source-maps) gives stack traces
// their TypeScript names back. keepNames was measured: it costs more than it saves.
const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  minify: true,
  sourcemap: "linked",
};

// dockerode requires its BuildKit helpers (a build session over gRPC, a
// protobuf decoder for build progress): about 0.8 MB of the daemon bundle, run
// when Docker is first used. Outpost never builds images and follows a pull's
// progress with docker.modem.followProgress: both are left out of the bundle.
const withoutDockerBuildKit = {
  name: "without-docker-buildkit",
  setup(b) {
    b.onResolve({ filter: /^\.\/(session|buildkit)$/ }, (args) =>
      /[\\/]dockerode[\\/]lib[\\/]/.test(args.importer)
        ? { path: args.path, namespace: "outpost-unused" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "outpost-unused" }, () => ({
      loader: "js",
      contents:
        "const unused = () => { throw new Error('Docker BuildKit is not part of Outpost'); };\n" +
        "module.exports = unused; module.exports.followProgress = unused;",
    }));
  },
};

// gamedig decodes text with iconv-lite in single-byte code pages only (win1252
// for Latin-1; UTF-8 and UCS-2 go through Buffer), and Outpost passes it no
// encoding: the double-byte tables (Chinese, Japanese, Korean), 0.4 MB of the
// 1 MB gamedig brings, are left out of the daemon bundle. Asking for such a
// code page throws.
const withoutIconvDoubleByteTables = {
  name: "without-iconv-double-byte-tables",
  setup(b) {
    b.onResolve({ filter: /^\.\/tables\/.*\.json$/ }, (args) =>
      /[\\/]iconv-lite[\\/]encodings[\\/]/.test(args.importer)
        ? { path: args.path, namespace: "outpost-no-tables" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "outpost-no-tables" }, (args) => ({
      loader: "js",
      contents: `throw new Error(${JSON.stringify(`${args.path}: this character set is not part of Outpost`)});`,
    }));
  },
};

// Bundled into the panel's build, trimmed to what the server uses: ES-module
// packages that would otherwise load as thousands of files at start (typebox
// alone is 1 427 modules, kysely 974), each kept in memory with its source.
// Bundling the CommonJS ones too was tried: the idle panel then held more.
const bundledPackages = ["typebox", "kysely", "@marcbachmann/cel-js"];
const { dependencies, devDependencies } = JSON.parse(
  fs.readFileSync(path.join(root, "package.json"), "utf8"),
);
// Split at every dynamic import(): what a command or a rarely used part loads
// on first use (the panel for `outpost serve`, the daemon for `outpost
// daemon`, 2FA, mail...) is a chunk of its own, with its npm dependencies
// loaded only then.
const panelDir = path.join(root, "dist-server");
const panel = path.join(panelDir, "outpost.mjs");
// The CEL library of template conditions is imported statically (the browser shares that
// synchronous code), but most templates have no condition: in the panel's build the class
// conditions.ts makes is a stand-in that loads the library, bundled apart as one CommonJS file,
// with the first one made (the first condition checked or evaluated). Evaluated with the rest,
// it cost the idle panel about 0.9 MiB of heap.
const celFile = "cel-js.cjs";
await build({
  ...common,
  sourcemap: false,
  format: "cjs",
  stdin: { contents: 'module.exports = require("@marcbachmann/cel-js");', resolveDir: root },
  outfile: path.join(panelDir, celFile),
});
const celOnFirstUse = {
  name: "cel-on-first-use",
  setup(b) {
    b.onResolve({ filter: /^@marcbachmann\/cel-js$/ }, (args) => ({
      path: args.path,
      namespace: "outpost-cel",
    }));
    b.onLoad({ filter: /.*/, namespace: "outpost-cel" }, () => ({
      loader: "js",
      resolveDir: root,
      contents: [
        'import { createRequire } from "node:module";',
        "let cel;",
        `const load = () => (cel ??= createRequire(import.meta.url)(${JSON.stringify(`./${celFile}`)}));`,
        "export class Environment { constructor(...args) { return new (load().Environment)(...args); } }",
      ].join("\n"),
    }));
  },
};
const built = await build({
  ...common,
  entryPoints: { outpost: path.join(root, "server", "main.ts") },
  outdir: panelDir,
  splitting: true,
  outExtension: { ".js": ".mjs" },
  // Beside the entry, not in a sub-folder: server/repo-root.ts counts on
  // every built file being one level below the root.
  chunkNames: "[name]-[hash]",
  metafile: true,
  plugins: [celOnFirstUse],
  external: Object.keys({ ...dependencies, ...devDependencies }).filter(
    (name) => !bundledPackages.includes(name),
  ),
});
// Chunks of earlier builds go once they are a day old: a panel still running
// an earlier build may yet load one on first use.
const current = new Set(Object.keys(built.metafile.outputs).map((f) => path.resolve(root, f)));
current.add(path.join(panelDir, celFile));
for (const name of fs.readdirSync(panelDir)) {
  const file = path.join(panelDir, name);
  if (!current.has(file) && fs.statSync(file).mtimeMs < Date.now() - 24 * 3600_000) fs.rmSync(file);
}
const panelFiles = [...current].filter((f) => f.endsWith(".mjs"));
// The npm packages the built panel imports (left external above): a release (scripts/release.mjs)
// ships these and what they depend on, and nothing else of node_modules.
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
const importedPackages = new Set();
for (const output of Object.values(built.metafile.outputs))
  for (const imported of output.imports)
    if (imported.external && !imported.path.startsWith("node:"))
      importedPackages.add(packageOf(imported.path));
// …and those the server loads with createRequire(import.meta.url)(…) or resolves to a file, which
// the bundler leaves as they are (pg, Fastify's form parser, Swagger UI's files).
for (const file of fs.readdirSync(path.join(root, "server"), { recursive: true }))
  if (String(file).endsWith(".ts"))
    for (const [, name] of fs
      .readFileSync(path.join(root, "server", String(file)), "utf8")
      .matchAll(/createRequire\(import\.meta\.url\)(?:\.resolve)?\(\s*"([^"]+)"/g))
      importedPackages.add(packageOf(name));
fs.writeFileSync(
  path.join(panelDir, "imported-packages.json"),
  `${JSON.stringify([...importedPackages].sort(), null, 2)}\n`,
);

// The daemon's packages that only a rarely used part loads, each by a dynamic
// import() (a query, Docker, an archive or a backup, the first SFTP or
// WebSocket connection, the first request checked by TypeBox, the first answer
// written by its schema's serializer). In the daemon bundle
// they are packed apart: compressed at the end of the file, on comment lines
// the JavaScript parser skips, and unpacked into a function on first use.
// Parsed with the rest, their 1.2 MB of code (gamedig alone brings 0.5 MB
// of character-set tables) cost an idle node about 8 MiB: the parser's
// working memory, which the C allocator then cannot give back, and the
// code's own heap.
// The CEL library of template conditions (server/templates/conditions.ts) is
// imported statically, as the browser shares that synchronous code: here the
// classes it uses are stand-ins that unpack it with the first one made (the
// first condition evaluated; 0.9 MiB less at idle).
const packedOnFirstUse = { "@marcbachmann/cel-js": ["Environment"] };
const packedPackages = [
  "@aws-sdk/client-s3",
  "@aws-sdk/lib-storage",
  "gamedig",
  "dockerode",
  "fast-json-stringify",
  "ssh2",
  "tar",
  "typebox/compile",
  "ws",
  "yazl",
  "yauzl",
  ...Object.keys(packedOnFirstUse),
];
const packedMarker = "//outpost-packed ";
const packedAside = {
  name: "packed-aside",
  setup(b) {
    const filter = new RegExp(`^(${packedPackages.join("|")})$`);
    b.onResolve({ filter }, (args) => {
      if (args.kind === "dynamic-import") return { path: args.path, namespace: "outpost-packed" };
      if (args.path in packedOnFirstUse) return { path: args.path, namespace: "outpost-packed-classes" };
      return undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "outpost-packed" }, (args) => ({
      loader: "js",
      contents: `module.exports = __outpostUnpack(${JSON.stringify(args.path)});`,
    }));
    b.onLoad({ filter: /.*/, namespace: "outpost-packed-classes" }, (args) => ({
      loader: "js",
      contents: packedOnFirstUse[args.path]
        .map(
          (name) =>
            `export class ${name} { constructor(...args) { return new (__outpostUnpack(${JSON.stringify(args.path)}).${name})(...args); } }`,
        )
        .join("\n"),
    }));
  },
};

/**
 * One package as a CommonJS function body (what __outpostUnpack runs), compressed with brotli, in
 * base64. The other packed packages it requires stay out of it, unpacked once for both (dockerode
 * requires ssh2: 0.6 -> 0.2 MB).
 */
async function packed(name) {
  const result = await build({
    ...common,
    sourcemap: false,
    format: "cjs",
    write: false,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root },
    plugins: [withoutDockerBuildKit, withoutIconvDoubleByteTables],
    external: ["cpu-features", "*.node", ...packedPackages.filter((other) => other !== name)],
  });
  const code = result.outputFiles[0].contents;
  const params = {
    [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
    [zlibConstants.BROTLI_PARAM_SIZE_HINT]: code.length,
  };
  return brotliCompressSync(code, { params }).toString("base64");
}

const daemon = path.join(root, "dist-daemon", "outpost-daemon.mjs");
await build({
  ...common,
  entryPoints: [path.join(root, "server", "cli", "daemon-bundle.ts")],
  outfile: daemon,
  legalComments: "linked",
  plugins: [withoutDockerBuildKit, packedAside],
  define: { __OUTPOST_VERSION__: JSON.stringify(version) },
  // CommonJS dependencies use require(), __filename and __dirname: give the ES module them.
  // __outpostUnpack runs a packed package (see packedPackages) from this very file.
  banner: {
    js: [
      "#!/usr/bin/env node",
      "import { createRequire as __outpostCreateRequire } from 'node:module';",
      "import { fileURLToPath as __outpostFileUrlToPath } from 'node:url';",
      "import { dirname as __outpostDirname } from 'node:path';",
      "const require = __outpostCreateRequire(import.meta.url);",
      "const __filename = __outpostFileUrlToPath(import.meta.url);",
      "const __dirname = __outpostDirname(__filename);",
      `const __outpostUnpacked = new Map();
function __outpostUnpack(name) {
  if (__outpostUnpacked.has(name)) return __outpostUnpacked.get(name);
  const text = require('node:fs').readFileSync(__filename, 'latin1');
  const marker = '\\n${packedMarker}' + name + ' ';
  const at = text.lastIndexOf(marker) + marker.length;
  const code = require('node:zlib').brotliDecompressSync(Buffer.from(text.slice(at, text.indexOf('\\n', at)), 'base64'));
  const run = require('node:vm').runInThisContext('(function (exports, require, module, __filename, __dirname) {' + code + '\\n})', { filename: __filename + '#' + name });
  const module = { exports: {} };
  const packed = ${JSON.stringify(packedPackages)};
  const requireHere = Object.assign((id) => (packed.includes(id) ? __outpostUnpack(id) : require(id)), require);
  run(module.exports, requireHere, module, __filename, __dirname);
  __outpostUnpacked.set(name, module.exports);
  return module.exports;
}`,
    ].join("\n"),
  },
  // ssh2's optional native speed-ups: it falls back to JavaScript when they are absent.
  external: ["cpu-features", "*.node"],
});
{
  const lines = await Promise.all(
    packedPackages.map(async (name) => `${packedMarker}${name} ${await packed(name)}\n`),
  );
  // Before the source map's comment, which stays the last line.
  const text = fs.readFileSync(daemon, "utf8");
  const mapLine = text.lastIndexOf("\n//# sourceMappingURL=") + 1;
  fs.writeFileSync(daemon, text.slice(0, mapLine) + lines.join("") + text.slice(mapLine), {
    mode: fs.statSync(daemon).mode,
  });
}

// V8 keeps every script's source in memory, as one byte per character only
// when all of it is Latin-1: a single "—" left in a comment of a dependency
// doubled the daemon bundle's 5.7 MB to 11.6 MB of heap. esbuild escapes
// non-ASCII text in strings but not in the comments it keeps, nor always in
// regular expressions; each such UTF-16 unit becomes \uXXXX, which means the
// same in strings, templates, regular expressions and identifiers, and
// nothing in comments. (The source maps' columns move by a few characters on
// those lines.)
for (const file of [...panelFiles, daemon]) {
  const text = fs.readFileSync(file, "utf8");
  const ascii = text.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  if (ascii !== text) fs.writeFileSync(file, ascii, { mode: fs.statSync(file).mode });
}

const mib = (files) => (files.reduce((sum, f) => sum + fs.statSync(f).size, 0) / 1024 / 1024).toFixed(1);
console.log(
  `server build: ${path.relative(root, panel)} (${mib([panel])} MiB, and ${panelFiles.length - 1} chunks: ${mib(panelFiles.filter((f) => f !== panel))} MiB)`,
);
console.log(`server build: ${path.relative(root, daemon)} (${mib([daemon])} MiB)`);
