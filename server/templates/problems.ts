/**
 * What parsing found wrong, as a list rather than the first error, so an
 * editor can mark every bad field at once. Paths read like JavaScript:
 * `run.command[1].if`, `data["server-port"].value`.
 */
export interface Problem {
  path: string;
  problem: string;
}

export type Problems = Problem[];

const identifier = /^[A-Za-z_$][\w$]*$/;

export function childPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  if (!identifier.test(key)) return `${base}[${JSON.stringify(key)}]`;
  return base ? `${base}.${key}` : key;
}

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON's name for a value's type, for messages ("expected a string, got an array"). */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return `a ${typeof value}`;
}
