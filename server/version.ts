import fs from "node:fs";
import path from "node:path";

/** The product version, from package.json. */
export const productVersion: string = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8"),
).version;
