#!/usr/bin/env node
// `npm run release`: one tarball for Linux x64, release/outpost-<version>-linux-x64.tar.gz, that
// unpacks into outpost-<version>/ and runs with Node alone: no npm ci, no compiler.
// - the built web app (dist/), the built panel (dist-server/) and the daemon bundle (dist-daemon/),
//   from `npm run build`, which this runs first;
// - node_modules/ with only the packages the built panel imports (dist-server/imported-packages.json,
//   written by scripts/build-server.mjs) and what those depend on, copied from this checkout's
//   node_modules with their native parts as they were built here (better-sqlite3, argon2, ssh2);
// - what the server reads at run time: starter templates and their texts (locales/*/starter-templates.json),
//   and the alerts' texts (locales/*/alerts.json);
// - bin/outpost, a systemd unit and an install script (deploy/release/).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
if (process.platform !== "linux" || process.arch !== "x64")
  throw new Error(
    `a release is built on Linux x64 (its native parts are this machine's); this is ${process.platform} ${process.arch}`,
  );

if (!process.argv.includes("--no-build"))
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });

const name = `outpost-${pkg.version}`;
// --out DIR: where the tarball goes (release/ by default).
const outAt = process.argv.indexOf("--out");
const outDir = outAt > 0 ? path.resolve(process.argv[outAt + 1]) : path.join(root, "release");
const stage = path.join(outDir, name);
fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(stage, { recursive: true });

const copy = (from, to = from) =>
  fs.cpSync(path.join(root, from), path.join(stage, to), {
    recursive: true,
    // Source maps stay behind: nothing loads them unless asked (NODE_OPTIONS=--enable-source-maps).
    filter: (source) => !source.endsWith(".map"),
  });
for (const part of [
  "dist",
  "dist-server",
  "dist-daemon",
  "starter-templates",
  "LICENSE",
  "README.md",
  "docs",
  "CHANGELOG.md",
])
  copy(part);
for (const locale of fs.readdirSync(path.join(root, "locales"), { withFileTypes: true }))
  for (const file of ["starter-templates.json", "alerts.json"])
    if (locale.isDirectory() && fs.existsSync(path.join(root, "locales", locale.name, file)))
      copy(path.join("locales", locale.name, file));

// package.json as the built server reads it (its version; "type": "module" for bin/outpost.mjs).
fs.writeFileSync(
  path.join(stage, "package.json"),
  `${JSON.stringify({ name: pkg.name, version: pkg.version, type: "module", license: pkg.license, private: true }, null, 2)}\n`,
);

// The packages and what they depend on, resolved as Node does: a package's own node_modules first,
// then each folder above it.
const wanted = JSON.parse(fs.readFileSync(path.join(root, "dist-server", "imported-packages.json"), "utf8"));
const shipped = new Set();
const folderOf = (dependency, from) => {
  for (let dir = from; dir.startsWith(root); dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", dependency);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === root) break;
  }
  return undefined;
};
const visit = (folder) => {
  if (shipped.has(folder)) return;
  shipped.add(folder);
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
  const optional = new Set(Object.keys(manifest.optionalDependencies ?? {}));
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    const found = folderOf(dependency, folder);
    // An optional one for another platform is not installed here, and not needed.
    if (found) visit(found);
    else if (!optional.has(dependency))
      throw new Error(`${dependency} (needed by ${manifest.name}) is not installed: run npm ci`);
  }
  // A peer dependency the package uses when present (pg's pool, say) ships when it is installed.
  for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
    const found = folderOf(peer, folder);
    if (found && !manifest.peerDependenciesMeta?.[peer]?.optional) visit(found);
  }
};
for (const dependency of wanted) {
  const found = folderOf(dependency, root);
  if (!found) throw new Error(`${dependency} is not installed: run npm ci`);
  visit(found);
}
// A package nested inside another ships with it; each folder is copied once.
const folders = [...shipped].sort();
for (const folder of folders) {
  if (folders.some((other) => other !== folder && folder.startsWith(`${other}${path.sep}`))) continue;
  fs.cpSync(folder, path.join(stage, path.relative(root, folder)), { recursive: true, dereference: true });
}
// Each native part must load on the machine the tarball is for, as it did here.
const requireShipped = createRequire(path.join(stage, "package.json"));
for (const native of ["better-sqlite3", "@node-rs/argon2"]) requireShipped(native);

fs.mkdirSync(path.join(stage, "bin"));
fs.cpSync(path.join(root, "deploy", "release"), stage, { recursive: true });
for (const program of ["bin/outpost", "install.sh"]) fs.chmodSync(path.join(stage, program), 0o755);

const tarball = path.join(outDir, `${name}-linux-x64.tar.gz`);
execFileSync("tar", ["-C", outDir, "--owner=0", "--group=0", "-czf", tarball, name]);
// The tarball is the artifact: the folder it was made from goes.
fs.rmSync(stage, { recursive: true, force: true });
const mib = (fs.statSync(tarball).size / 1024 / 1024).toFixed(1);
console.log(`release: ${path.relative(root, tarball)} (${mib} MiB, ${folders.length} packages)`);
