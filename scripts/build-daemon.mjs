#!/usr/bin/env node
// Part of `npm run build`: the daemon as one self-contained file,
// dist-daemon/outpost-daemon.mjs, with every JavaScript dependency inside it,
// so a node's host needs only Node.js (no checkout, no npm install). The panel
// serves it at GET /daemon/bundle to a node that shows its secret.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const outfile = path.join(root, "dist-daemon", "outpost-daemon.mjs");

await build({
  entryPoints: [path.join(root, "server", "cli", "daemon-bundle.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
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
  logLevel: "warning",
});
const size = fs.statSync(outfile).size;
console.log(`daemon bundle: ${path.relative(root, outfile)} (${(size / 1024 / 1024).toFixed(1)} MiB)`);
