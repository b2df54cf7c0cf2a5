import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const serverDir = path.resolve(import.meta.dirname, "../../../server");

/** The config modules: the only code that reads the environment's settings. */
const configModules = ["config.ts", "daemon/config.ts"];
/** Reads OUTPOST_* names, but only from the environment a config module hands it. */
const sharedReaders = ["shared-settings.ts"];
/**
 * The environment handed on to child processes (or to a native library as it loads), or looked
 * through like a shell would, is no setting: these files may touch process.env for that and
 * nothing else.
 */
const childEnvironment: Record<string, string> = {
  "daemon/servers/host.ts": "PATH to find a program, LANG handed to game processes",
  "panel/templates/repo-fetch.ts": "git's environment, less the proxy variables",
  "panel/passwords.ts": "MIMALLOC_EAGER_COMMIT for argon2's allocator while the module loads",
};

function sources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(serverDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(serverDir, file), fs.readFileSync(file, "utf8"));
  }
  return files;
}

/** The source without its comments, so a comment naming a setting is not taken for a read. */
const code = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

const readsEnvironment =
  /\bprocess\.env\b|\bprocess\[\s*["']env["']\s*\]|\{[^}]*\benv\b[^}]*\}\s*from\s*"(?:node:)?process"/;
/** `env.OUTPOST_X`, `env["OUTPOST_X"]`, `{ OUTPOST_X: x } = env`. */
const readsSetting = /\.\s*OUTPOST_\w+|\[\s*["'`]OUTPOST_\w+|\{[^}]*\bOUTPOST_\w+\s*[:,}][^}]*\}\s*=/;

// DESIGN.md's review: every setting is read in a config module and passed down, so the README's
// table can be checked against two files and a test can set any of them without the environment.
describe("settings are read in the config modules only", () => {
  const files = sources();

  it("no other file under server/ reads process.env (children's environment aside)", () => {
    const readers = [...files]
      .filter(([file, source]) => !configModules.includes(file) && readsEnvironment.test(code(source)))
      .map(([file]) => file);
    expect(readers.filter((file) => !(file in childEnvironment))).toEqual([]);
    // An exemption whose file no longer needs it is dropped, so the list stays true.
    expect(Object.keys(childEnvironment).filter((file) => !readers.includes(file))).toEqual([]);
  });

  it("no other file under server/ reads an OUTPOST_* setting", () => {
    const readers = [...files]
      .filter(([file]) => !configModules.includes(file) && !sharedReaders.includes(file))
      .filter(([, source]) => readsSetting.test(code(source)))
      .map(([file]) => file);
    expect(readers).toEqual([]);
  });

  it("the config modules do read the environment (the scan looks at the right files)", () => {
    for (const file of configModules) expect(readsEnvironment.test(code(files.get(file) ?? ""))).toBe(true);
    for (const file of ["config.ts", ...sharedReaders])
      expect(readsSetting.test(code(files.get(file) ?? ""))).toBe(true);
  });
});
