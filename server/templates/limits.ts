import { assignDefined, isAbsent, readInteger, readObject, readString } from "./fields.ts";
import { childPath, type Problems } from "./problems.ts";
import type { ServerLimits } from "./types.ts";

/** The IO weights a server may be given (Pterodactyl's and Docker's range). */
export const ioWeightRange = { min: 10, max: 1000 } as const;

/** Highest CPU number a cpuset list may name (the kernel's NR_CPUS at most). */
const maxCpu = 8191;

/**
 * A cpuset list ("0", "0,2", "0-3,8"): comma-separated numbers and ascending ranges, no spaces,
 * nothing named twice. Answers what is wrong with it, or undefined when it is one.
 */
export function cpusetProblem(text: string): string | undefined {
  const said = "must be CPU numbers and ranges like 0,2 or 0-3";
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(text)) return said;
  const seen = new Set<number>();
  for (const part of text.split(",")) {
    const [from, to = from] = part.split("-").map(Number);
    if (to > maxCpu) return `names CPU ${to}, above ${maxCpu}`;
    if (from > to) return `range ${part} goes downward`;
    for (let cpu = from; cpu <= to; cpu++) {
      if (seen.has(cpu)) return `names CPU ${cpu} twice`;
      seen.add(cpu);
    }
  }
  return undefined;
}

/**
 * The server definition's top-level `limits` (an Outpost addition; the
 * reference has none): each value optional, absent means the node's default.
 * Sizes and counts must be positive whole numbers; swap may be 0 or "unlimited".
 */
export function parseLimits(raw: unknown, path: string, problems: Problems): ServerLimits | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const whole = (key: keyof ServerLimits, min: number, max = Number.MAX_SAFE_INTEGER) => {
    const at = childPath(path, key);
    const value = readInteger(object[key], at, problems);
    if (value === undefined) return undefined;
    if (value >= min && value <= max) return value;
    problems.push({
      path: at,
      problem: max === Number.MAX_SAFE_INTEGER ? `must be ${min} or more` : `must be from ${min} to ${max}`,
    });
    return undefined;
  };
  const limits = assignDefined<ServerLimits>(
    {},
    {
      memoryMiB: whole("memoryMiB", 1),
      pids: whole("pids", 1),
      cpuPercent: whole("cpuPercent", 1),
      diskMiB: whole("diskMiB", 1),
      swapMiB: object.swapMiB === "unlimited" ? "unlimited" : whole("swapMiB", 0),
      ioWeight: whole("ioWeight", ioWeightRange.min, ioWeightRange.max),
      cpuThreads: readCpuThreads(object.cpuThreads, childPath(path, "cpuThreads"), problems),
    },
  );
  if (limits.swapMiB !== undefined && limits.memoryMiB === undefined) {
    // Swap is counted beside a memory limit (Docker and cgroup v1 know no other kind).
    problems.push({ path: childPath(path, "swapMiB"), problem: "needs memoryMiB" });
    delete limits.swapMiB;
  }
  return limits;
}

function readCpuThreads(raw: unknown, at: string, problems: Problems): string | undefined {
  if (isAbsent(raw)) return undefined;
  const text = readString(raw, at, problems);
  if (text === undefined) return undefined;
  const problem = cpusetProblem(text);
  if (problem) {
    problems.push({ path: at, problem });
    return undefined;
  }
  return text;
}
