import type { ServerLimits } from "../../../server/templates/index.ts";
import { cpusetProblem, ioWeightRange } from "../../../server/templates/limits.ts";

export type LimitKey = keyof ServerLimits;
/** What the limit fields hold: the text typed, "" for the node's default ("unlimited" for swap's checkbox). */
export type LimitTexts = Record<LimitKey, string>;

export const LIMIT_KEYS: readonly LimitKey[] = [
  "memoryMiB",
  "swapMiB",
  "cpuPercent",
  "cpuThreads",
  "pids",
  "diskMiB",
  "ioWeight",
];

export function limitTexts(limits: ServerLimits | undefined): LimitTexts {
  return Object.fromEntries(
    LIMIT_KEYS.map((k) => [k, limits?.[k] === undefined ? "" : String(limits[k])]),
  ) as LimitTexts;
}

/** Why a limit's text is refused: not a whole number, out of range, not a CPU list, swap without memory. */
export type LimitProblem = "whole" | "range" | "cpus" | "needsMemory";

const wholeNumber = /^(0|[1-9]\d{0,8})$/;

function problemOf(key: LimitKey, text: string, texts: LimitTexts): LimitProblem | undefined {
  switch (key) {
    case "swapMiB":
      if (text !== "unlimited" && !wholeNumber.test(text)) return "whole";
      return texts.memoryMiB.trim() === "" ? "needsMemory" : undefined;
    case "ioWeight": {
      if (!wholeNumber.test(text)) return "whole";
      const weight = Number(text);
      return weight < ioWeightRange.min || weight > ioWeightRange.max ? "range" : undefined;
    }
    case "cpuThreads":
      return cpusetProblem(text) ? "cpus" : undefined;
    default:
      return wholeNumber.test(text) && text !== "0" ? undefined : "whole";
  }
}

/** The limits the texts say, and what is wrong with the ones that say nothing valid. */
export function readLimits(texts: LimitTexts): {
  limits: ServerLimits;
  invalid: LimitKey[];
  problems: Partial<Record<LimitKey, LimitProblem>>;
} {
  const limits: Record<string, number | string> = {};
  const problems: Partial<Record<LimitKey, LimitProblem>> = {};
  for (const key of LIMIT_KEYS) {
    const text = texts[key].trim();
    if (text === "") continue;
    const problem = problemOf(key, text, texts);
    if (problem) problems[key] = problem;
    else limits[key] = key === "cpuThreads" || text === "unlimited" ? text : Number(text);
  }
  return { limits: limits as ServerLimits, invalid: Object.keys(problems) as LimitKey[], problems };
}
