import { describe, expect, it } from "vitest";
import { backupsToPrune, type Kept } from "../../../server/daemon/backups/backup-policy.ts";

const policy = (over: Partial<Record<string, number>> = {}) => ({
  keepLast: 0,
  keepDaily: 0,
  keepWeekly: 0,
  keepMonthly: 0,
  maxTotalBytes: 0,
  ...over,
});

/** One backup per given time (UTC, "2026-03-01T04:00"), named by it. */
const made = (...times: string[]): Kept[] =>
  times.map((at) => ({ fileName: at, createdAt: Date.parse(`${at}Z`), size: 100, pinned: false }));
const names = (list: Kept[]) => list.map((b) => b.fileName).sort();
const kept = (all: Kept[], p: ReturnType<typeof policy>) => {
  const gone = new Set(backupsToPrune(all, p));
  return names(all.filter((b) => !gone.has(b)));
};

describe("the backup policy's selection (grandfather-father-son)", () => {
  // Two a day (04:00 and 16:00) from 2026-01-01 to 2026-03-31.
  const nightly: Kept[] = [];
  for (let day = Date.parse("2026-01-01T00:00Z"); day <= Date.parse("2026-03-31T00:00Z"); day += 86_400_000) {
    for (const hour of [4, 16]) {
      const at = new Date(day + hour * 3_600_000).toISOString().slice(0, 16);
      nightly.push(...made(at));
    }
  }

  it("keeps everything while no count is set", () => {
    expect(backupsToPrune(nightly, policy())).toEqual([]);
  });

  it("keeps the newest N", () => {
    expect(kept(nightly, policy({ keepLast: 3 }))).toEqual([
      "2026-03-30T16:00",
      "2026-03-31T04:00",
      "2026-03-31T16:00",
    ]);
  });

  it("keeps the newest of each of the last D days", () => {
    expect(kept(nightly, policy({ keepDaily: 3 }))).toEqual([
      "2026-03-29T16:00",
      "2026-03-30T16:00",
      "2026-03-31T16:00",
    ]);
  });

  it("keeps the newest of each ISO week (Monday first) and of each month", () => {
    // 2026-03-31 is a Tuesday: its week began on Monday 30 March; the week before ended on Sunday 29.
    expect(kept(nightly, policy({ keepWeekly: 3 }))).toEqual([
      "2026-03-22T16:00",
      "2026-03-29T16:00",
      "2026-03-31T16:00",
    ]);
    expect(kept(nightly, policy({ keepMonthly: 2 }))).toEqual(["2026-02-28T16:00", "2026-03-31T16:00"]);
  });

  it("joins the rules: last, daily, weekly and monthly, one backup counting for several", () => {
    const result = kept(nightly, policy({ keepLast: 2, keepDaily: 2, keepWeekly: 2, keepMonthly: 3 }));
    expect(result).toEqual([
      "2026-01-31T16:00",
      "2026-02-28T16:00",
      "2026-03-29T16:00",
      "2026-03-30T16:00",
      "2026-03-31T04:00",
      "2026-03-31T16:00",
    ]);
  });

  it("counts days that have a backup, not calendar days: a gap does not use up the count", () => {
    const sparse = made("2026-01-01T10:00", "2026-01-10T10:00", "2026-01-20T10:00", "2026-01-20T11:00");
    expect(kept(sparse, policy({ keepDaily: 3 }))).toEqual([
      "2026-01-01T10:00",
      "2026-01-10T10:00",
      "2026-01-20T11:00",
    ]);
  });

  it("never prunes a pinned backup", () => {
    const list = made("2026-01-01T10:00", "2026-01-02T10:00", "2026-01-03T10:00");
    list[0].pinned = true;
    expect(kept(list, policy({ keepLast: 1 }))).toEqual(["2026-01-01T10:00", "2026-01-03T10:00"]);
  });

  it("bounds the total size: the oldest kept go first, pinned ones and the newest never", () => {
    const list = made("2026-01-01T10:00", "2026-01-02T10:00", "2026-01-03T10:00", "2026-01-04T10:00");
    list[1].pinned = true;
    // Alone, a size bound prunes from everything kept (all, with no counts).
    expect(kept(list, policy({ maxTotalBytes: 250 }))).toEqual(["2026-01-02T10:00", "2026-01-04T10:00"]);
    expect(kept(list, policy({ keepLast: 3, maxTotalBytes: 150 }))).toEqual([
      "2026-01-02T10:00",
      "2026-01-04T10:00",
    ]);
    const huge = made("2026-01-05T10:00");
    huge[0].size = 10_000;
    expect(kept(huge, policy({ maxTotalBytes: 1 }))).toEqual(["2026-01-05T10:00"]);
  });
});
