import { readObject } from "./fields.ts";
import { childPath, isObject, type Problems } from "./problems.ts";
import type { EggExtras } from "./types.ts";

const listFields = ["configFiles", "done", "denylist", "features", "hidden"] as const;

/**
 * The `egg` object of a stored definition (see egg.ts, which writes it). Read
 * back with a shape check only: its contents were checked when the egg was converted.
 */
export function parseEggExtras(raw: unknown, path: string, problems: Problems): EggExtras | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  if (typeof object.format !== "string") {
    problems.push({ path: childPath(path, "format"), problem: "expected the egg format's name" });
    return undefined;
  }
  for (const key of listFields) {
    if (object[key] !== undefined && !Array.isArray(object[key])) {
      problems.push({ path: childPath(path, key), problem: "expected a list" });
      return undefined;
    }
  }
  for (const key of ["install", "rules"] as const) {
    if (object[key] !== undefined && !isObject(object[key])) {
      problems.push({ path: childPath(path, key), problem: "expected an object" });
      return undefined;
    }
  }
  return structuredClone(object) as unknown as EggExtras;
}
