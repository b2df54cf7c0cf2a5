import fs from "node:fs";
import path from "node:path";
import { goPlatform } from "../../templates/index.ts";

/** Facts about this host that templates ask for: platform names and programs on PATH. */
export const hostPlatform = goPlatform(process.platform, process.arch);

export function findBinary(name: string, searchPath = process.env.PATH ?? ""): boolean {
  if (name.includes("/")) return isExecutable(name);
  return searchPath.split(path.delimiter).some((dir) => dir && isExecutable(path.join(dir, name)));
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Variables of the daemon's own that a game server must not inherit (secrets, configuration). */
const privatePrefixes = ["OUTPOST_", "PUFFER_", "DATABASE_URL", "npm_"];

/** The environment a server process gets (reference §5.1): the daemon's, less its own settings, plus HOME, TERM and the definition's. */
export function processEnvironment(root: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !privatePrefixes.some((p) => key.startsWith(p))) env[key] = value;
  }
  return { ...env, HOME: root, TERM: "xterm-256color", ...extra };
}
