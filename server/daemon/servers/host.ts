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

/** The system's folders only: the daemon's own PATH names its node_modules/.bin and home folders. */
export const serverPath =
  "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/games:/usr/games";

/**
 * The environment a server process gets (reference §5.1): nothing of the
 * daemon's own (its settings and secrets: database address, mail password,
 * keys, its PATH), only PATH, HOME, LANG and TERM, plus what the definition
 * sets. The node's shared binaries folder (javadl's java21, …) leads the PATH.
 */
export function processEnvironment(
  root: string,
  extra: Record<string, string>,
  binariesDir?: string,
): Record<string, string> {
  return {
    PATH: binariesDir ? `${binariesDir}${path.delimiter}${serverPath}` : serverPath,
    HOME: root,
    LANG: process.env.LANG || "C.UTF-8",
    TERM: "xterm-256color",
    ...extra,
  };
}
