import type { ServerLimits } from "../../../server/templates/index.ts";

export type LimitKey = keyof ServerLimits;
/** What the limit fields hold: the text typed, "" for the node's default. */
export type LimitTexts = Record<LimitKey, string>;

export const LIMIT_KEYS: readonly LimitKey[] = ["memoryMiB", "cpuPercent", "pids", "diskMiB"];

export function limitTexts(limits: ServerLimits | undefined): LimitTexts {
  return Object.fromEntries(
    LIMIT_KEYS.map((k) => [k, limits?.[k] === undefined ? "" : String(limits[k])]),
  ) as LimitTexts;
}

/** The limits the texts say, or the keys that are not whole numbers of 1 or more. */
export function readLimits(texts: LimitTexts): { limits: ServerLimits; invalid: LimitKey[] } {
  const limits: ServerLimits = {};
  const invalid: LimitKey[] = [];
  for (const key of LIMIT_KEYS) {
    const text = texts[key].trim();
    if (text === "") continue;
    if (/^[1-9]\d{0,8}$/.test(text)) limits[key] = Number(text);
    else invalid.push(key);
  }
  return { limits, invalid };
}
