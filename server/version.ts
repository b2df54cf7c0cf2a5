import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "./repo-root.ts";

/** Set by the daemon bundle's build (scripts/build-server.mjs), which has no package.json beside it. */
declare const __OUTPOST_VERSION__: string | undefined;

/** The product version, from package.json. */
export const productVersion: string =
  typeof __OUTPOST_VERSION__ === "string"
    ? __OUTPOST_VERSION__
    : JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
