import { assignDefined, readInteger, readObject } from "./fields.ts";
import { childPath, type Problems } from "./problems.ts";
import type { ServerLimits } from "./types.ts";

/**
 * The server definition's top-level `limits` (an Outpost addition; the
 * reference has none): each value optional, absent means the node's default.
 * Values must be positive whole numbers.
 */
export function parseLimits(raw: unknown, path: string, problems: Problems): ServerLimits | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const read = (key: keyof ServerLimits) => {
    const at = childPath(path, key);
    const value = readInteger(object[key], at, problems);
    if (value !== undefined && value < 1) {
      problems.push({ path: at, problem: "must be 1 or more" });
      return undefined;
    }
    return value;
  };
  return assignDefined<ServerLimits>(
    {},
    {
      memoryMiB: read("memoryMiB"),
      pids: read("pids"),
      cpuPercent: read("cpuPercent"),
      diskMiB: read("diskMiB"),
    },
  );
}
