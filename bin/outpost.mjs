#!/usr/bin/env node
// The `outpost` command. It runs the server compiled ahead of time
// (dist-server/outpost.mjs, made by `npm run build`) while that build is newer
// than every source it was made from; otherwise (a checkout being edited, or
// never built) the TypeScript sources through tsx's loader. `outpost daemon`
// runs the self-contained daemon bundle (dist-daemon/outpost-daemon.mjs, the
// same build) when it is fresh: one file, no node_modules to load, the
// lightest a node can be at idle.
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { newest } from "./newest-mtime.mjs";

const root = path.resolve(import.meta.dirname, "..");
const built = path.join(root, "dist-server", "outpost.mjs");
const daemonBundle = path.join(root, "dist-daemon", "outpost-daemon.mjs");

function builtAt(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** When a source was last changed. */
function newestSource() {
  return Math.max(newest(path.join(root, "server")), newest(path.join(root, "package.json")));
}

let sources;
/** Whether a build is newer than every file it was made from. */
function fresh(file) {
  const at = builtAt(file);
  if (at === undefined || process.env.OUTPOST_FROM_SOURCE === "true") return false;
  sources ??= newestSource();
  return sources < at;
}

// What server/start-up-memory.ts holds back while the panel starts (its comment says why), set
// here already: the freshness check below runs hot enough for V8 to optimise it, which alone
// costs an idle panel about 4 MiB. The panel's first request restores V8's defaults.
if (process.argv[2] === "serve")
  for (const flag of ["--semi-space-growth-factor=1", "--no-turbofan", "--no-sparkplug"])
    v8.setFlagsFromString(flag);

// Source maps stay off: with them on, Node reads and keeps the map of every
// module it loads (ours and the dependencies'), 30-40 MiB of an idle panel.
// `NODE_OPTIONS=--enable-source-maps` names the TypeScript sources in stack
// traces when that is wanted (each build writes its .map beside it).
if (process.argv[2] === "daemon" && fresh(daemonBundle)) {
  // The bundle takes `--config FILE` alone, as on a node's host.
  process.argv.splice(2, 1);
  await import(daemonBundle);
} else if (fresh(built)) {
  await import(built);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/main.ts");
}
