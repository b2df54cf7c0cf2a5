import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExtractBudget } from "../../../server/daemon/archive/extract-budget.ts";
import type { ApiError } from "../../../server/errors.ts";

/** The bounds of one extraction (issue 13 finding 15), read from the real disk under a real folder. */
describe("ExtractBudget", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-budget-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const refusal = (take: () => void) => {
    try {
      take();
    } catch (err) {
      return err as ApiError;
    }
    throw new Error("not refused");
  };

  it("lets an archive unpack to 200 times its size (at least 64 MiB), not one byte more", async () => {
    const mib = 1024 ** 2;
    const budget = await ExtractBudget.of(dir, { archiveBytes: mib });
    budget.take(200 * mib);
    const err = refusal(() => budget.take(1));
    expect([err.status, err.code, err.metadata]).toEqual([400, "ErrArchiveTooLarge", { max: 200 * mib }]);
    const small = await ExtractBudget.of(dir, { archiveBytes: 10 });
    small.take(64 * mib);
    expect(refusal(() => small.take(1)).code).toBe("ErrArchiveTooLarge");
  });

  it("never lets an extraction write more than the disk had free when it began, whatever the ratio", async () => {
    const before = fs.statfsSync(dir);
    const budget = await ExtractBudget.of(dir, { archiveBytes: 1, ratio: Number.POSITIVE_INFINITY });
    const after = fs.statfsSync(dir);
    // The free space the budget read lies between these two readings.
    const most = Math.max(before.bavail, after.bavail) * before.bsize;
    const least = Math.min(before.bavail, after.bavail) * before.bsize;
    budget.take(least);
    const err = refusal(() => budget.take(most - least + 1));
    expect([err.status, err.code]).toEqual([507, "ErrNoSpace"]);
  });
});
