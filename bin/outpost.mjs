#!/usr/bin/env node
// The `outpost` command. It runs the server compiled ahead of time
// (dist-server/outpost.mjs, made by `npm run build`) while that build is newer
// than every source it was made from; otherwise (a checkout being edited, or
// never built) the TypeScript sources through tsx's loader.
import fs from "node:fs";
import path from "node:path";
import { newest } from "./newest-mtime.mjs";

const root = path.resolve(import.meta.dirname, "..");
const built = path.join(root, "dist-server", "outpost.mjs");

function builtAt() {
  try {
    return fs.statSync(built).mtimeMs;
  } catch {
    return undefined;
  }
}

const at = builtAt();
const fresh =
  at !== undefined &&
  process.env.OUTPOST_FROM_SOURCE !== "true" &&
  Math.max(newest(path.join(root, "server")), newest(path.join(root, "package.json"))) < at;
if (fresh) {
  // Source maps stay off: with them on, Node reads and keeps the map of every
  // module it loads (ours and the dependencies'), 30-40 MiB of an idle panel.
  // `NODE_OPTIONS=--enable-source-maps` names the TypeScript sources in stack
  // traces when that is wanted (dist-server/outpost.mjs.map is built for it).
  await import(built);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/main.ts");
}
