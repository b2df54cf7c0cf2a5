#!/usr/bin/env node
// `npm start`'s first step: builds the web app and the server (npm run build)
// only when a build is missing or older than something it is made from, so a
// start after the first is quick and needs none of the build's dev dependencies.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { newest } from "../bin/newest-mtime.mjs";

const root = path.resolve(import.meta.dirname, "..");
// The web app's manifest and the server's ahead-of-time build: the older of the two counts.
const builtMarkers = [
  path.join(root, "dist", ".vite", "manifest.json"),
  path.join(root, "dist-server", "outpost.mjs"),
];
// What the web app is built from (the app imports server/ code for templates and wire types).
const inputs = [
  "src",
  "public",
  "locales",
  "server",
  "index.html",
  "vite.config.ts",
  "lingui.config.ts",
  "scripts/vite-babel-macros.ts",
  "scripts/build-server.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function builtAt() {
  try {
    return Math.min(...builtMarkers.map((marker) => fs.statSync(marker).mtimeMs));
  } catch {
    return undefined;
  }
}

const built = builtAt();
const changed = inputs.find((input) => newest(path.join(root, input)) > (built ?? 0));
if (built !== undefined && !changed) {
  console.log("build: up to date, not rebuilt");
  process.exit(0);
}
if (!fs.existsSync(path.join(root, "node_modules", "vite"))) {
  if (built !== undefined) {
    console.warn(
      `build: ${changed} changed since the build, but vite is not installed (npm ci --omit=dev?): running the build there is`,
    );
    process.exit(0);
  }
  console.error(
    "build: none there and no vite to make one: run `npm ci` (with dev dependencies), then `npm run build`",
  );
  process.exit(1);
}
console.log(built === undefined ? "build: building" : `build: ${changed} changed, rebuilding`);
const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
