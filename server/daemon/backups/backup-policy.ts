import type { BackupPolicy } from "../../contract/node/backup-wire.ts";

/** A finished backup as the policy weighs it. */
export interface Kept {
  fileName: string;
  /** When it was made, ms since the epoch. */
  createdAt: number;
  size: number;
  pinned: boolean;
}

/** A policy that keeps everything: what a server has until one is set. */
export const keepEverything: BackupPolicy = {
  keepLast: 0,
  keepDaily: 0,
  keepWeekly: 0,
  keepMonthly: 0,
  maxTotalBytes: 0,
};

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const month = (at: number) => new Date(at).toISOString().slice(0, 7);
/** The ISO week (UTC): its year and number, Monday first. */
function week(at: number): string {
  const date = new Date(at);
  const target = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const weekday = (date.getUTCDay() + 6) % 7;
  const thursday = new Date(target - weekday * 86_400_000 + 3 * 86_400_000);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const number = Math.floor((thursday.getTime() - yearStart) / (7 * 86_400_000)) + 1;
  return `${thursday.getUTCFullYear()}-W${number}`;
}

/**
 * Which backups a policy removes (grandfather-father-son, as restic's
 * `forget` counts): the newest `keepLast`; then the newest of each of the
 * last `keepDaily` days that have one (UTC), of the last `keepWeekly` ISO
 * weeks and `keepMonthly` months; pinned ones always. A policy of zeros
 * keeps all (none set). Then, while what is kept is over `maxTotalBytes`,
 * the oldest kept that is not pinned goes, the newest backup never.
 */
export function backupsToPrune(backups: readonly Kept[], policy: BackupPolicy): Kept[] {
  const newest = [...backups].sort((a, b) => b.createdAt - a.createdAt || (a.fileName < b.fileName ? 1 : -1));
  const counted = policy.keepLast + policy.keepDaily + policy.keepWeekly + policy.keepMonthly > 0;
  const kept = new Set<Kept>(counted ? newest.filter((b) => b.pinned) : newest);
  if (counted) {
    for (const b of newest.slice(0, policy.keepLast)) kept.add(b);
    for (const [count, bucket] of [
      [policy.keepDaily, day],
      [policy.keepWeekly, week],
      [policy.keepMonthly, month],
    ] as const) {
      const seen = new Set<string>();
      for (const b of newest) {
        if (seen.size >= count) break;
        const key = bucket(b.createdAt);
        if (seen.has(key)) continue;
        seen.add(key);
        kept.add(b);
      }
    }
  }
  if (policy.maxTotalBytes > 0) {
    let total = [...kept].reduce((sum, b) => sum + b.size, 0);
    for (const b of [...newest].reverse()) {
      if (total <= policy.maxTotalBytes) break;
      if (!kept.has(b) || b.pinned || b === newest[0]) continue;
      kept.delete(b);
      total -= b.size;
    }
  }
  return newest.filter((b) => !kept.has(b));
}
