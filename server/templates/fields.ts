import { childPath, isObject, jsonType, type Problems } from "./problems.ts";

/**
 * Readers for the scalar and container fields of a template. Each returns
 * undefined for a missing value (undefined or null, which Go reads as unset)
 * without complaint, and records a problem for a value of the wrong shape.
 * Scalars are converted the way the Go panel's `cast` package does (a number
 * where text is expected is fine), because real templates rely on that.
 */

export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

export function requireField(value: unknown, path: string, problems: Problems): boolean {
  if (!isAbsent(value)) return true;
  problems.push({ path, problem: "is required" });
  return false;
}

function wrongType(path: string, expected: string, value: unknown, problems: Problems): undefined {
  problems.push({ path, problem: `expected ${expected}, got ${jsonType(value)}` });
  return undefined;
}

export function readString(value: unknown, path: string, problems: Problems): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return wrongType(path, "a string", value, problems);
}

/** A list of strings; a single string counts as a list of one (the schema allows it for `commands`). */
export function readStringList(value: unknown, path: string, problems: Problems): string[] | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === "string") return [value];
  if (!Array.isArray(value)) return wrongType(path, "a list of strings", value, problems);
  const list: string[] = [];
  value.forEach((item, index) => {
    const text = isAbsent(item)
      ? wrongType(childPath(path, index), "a string", item, problems)
      : readString(item, childPath(path, index), problems);
    if (text !== undefined) list.push(text);
  });
  return list;
}

export function readBoolean(value: unknown, path: string, problems: Problems): boolean | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  return wrongType(path, "a boolean", value, problems);
}

export function readInteger(value: unknown, path: string, problems: Problems): number | undefined {
  if (isAbsent(value)) return undefined;
  const read =
    typeof value === "string" && /^[+-]?\d+$/.test(value.trim()) ? Number.parseInt(value, 10) : value;
  if (typeof read === "number" && Number.isSafeInteger(read)) return read;
  // Whole, but past what a number holds exactly: said so, not "expected an integer, got an integer".
  if (typeof read === "number" && Number.isInteger(read)) {
    problems.push({ path, problem: `must be at most ${Number.MAX_SAFE_INTEGER}` });
    return undefined;
  }
  return wrongType(path, "an integer", value, problems);
}

export function readObject(
  value: unknown,
  path: string,
  problems: Problems,
): Record<string, unknown> | undefined {
  if (isAbsent(value)) return undefined;
  if (isObject(value)) return value;
  return wrongType(path, "an object", value, problems);
}

export function readList(value: unknown, path: string, problems: Problems): unknown[] | undefined {
  if (isAbsent(value)) return undefined;
  if (Array.isArray(value)) return value;
  return wrongType(path, "a list", value, problems);
}

/** An object of strings, such as `environmentVars`. */
export function readStringMap(
  value: unknown,
  path: string,
  problems: Problems,
): Record<string, string> | undefined {
  const object = readObject(value, path, problems);
  if (!object) return undefined;
  const map: Record<string, string> = {};
  for (const [key, item] of Object.entries(object)) {
    const text = readString(item, childPath(path, key), problems);
    if (text !== undefined) map[key] = text;
  }
  return map;
}

/** Copies only the fields that are set, so parsed documents carry no `undefined` keys. */
export function assignDefined<T extends object>(target: T, fields: Partial<T>): T {
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
  return target;
}
