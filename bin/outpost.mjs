#!/usr/bin/env node
// The `outpost` command. It runs the server compiled ahead of time
// (dist-server/outpost.mjs, made by `npm run build`) while that build is newer
// than every source it was made from; otherwise (a checkout being edited, or
// never built) the TypeScript sources through tsx's loader.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const built = path.join(root, "dist-server", "outpost.mjs");

/** The newest modification time below a path (0 when it does not exist). */
function newest(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

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
  // Stack traces name the TypeScript sources.
  process.setSourceMapsEnabled(true);
  await import(built);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/main.ts");
}
