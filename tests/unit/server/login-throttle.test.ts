import { describe, expect, it } from "vitest";
import {
  accountWideLimits,
  anyAddress,
  defaultThrottleLimits,
  LoginThrottle,
} from "../../../server/panel/login-throttle.ts";
import { scratchShared } from "../../support/scratch-db.ts";

const second = 1000;
const minute = 60_000;
const t0 = 1_700_000_000_000;

// Counted in a real (SQLite) database, as the panel counts; each test on a fresh one.
describe("LoginThrottle", () => {
  const shared = scratchShared();

  it("by default: 5 free failures per address and account, then 30 s doubling up to 15 min; 20 per address in 15 min", async () => {
    expect(defaultThrottleLimits).toEqual({
      freeAttempts: 5,
      firstDelayMs: 30 * second,
      maxDelayMs: 15 * minute,
      memoryMs: 24 * 60 * minute,
      perAddress: 20,
      windowMs: 15 * minute,
    });
  });

  it("after 5 failures an address waits on that account, longer after each further failure, up to the cap", async () => {
    const throttle = new LoginThrottle(shared(), "sign-in");
    let now = t0;
    for (let i = 0; i < 5; i++) {
      expect(await throttle.retryAfter("a@x.io", "1.2.3.4", now)).toBe(0);
      await throttle.recordFailure("a@x.io", "1.2.3.4", now);
    }
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      const wait = await throttle.retryAfter("a@x.io", "1.2.3.4", now);
      waits.push(wait);
      now += wait * second;
      expect(await throttle.retryAfter("a@x.io", "1.2.3.4", now)).toBe(0);
      await throttle.recordFailure("a@x.io", "1.2.3.4", now);
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900]);
  });

  it("says which failure starts a hold, once until a success or time forgets the failures", async () => {
    const throttle = new LoginThrottle(shared(), "sign-in");
    const starts: boolean[] = [];
    for (let i = 0; i < 8; i++) starts.push(await throttle.recordFailure("a@x.io", "1.2.3.4", t0 + i));
    expect(starts).toEqual([false, false, false, false, true, false, false, false]);
    await throttle.recordSuccess("a@x.io", "1.2.3.4");
    const again: boolean[] = [];
    for (let i = 0; i < 5; i++) again.push(await throttle.recordFailure("a@x.io", "1.2.3.4", t0 + i));
    expect(again.at(-1)).toBe(true);
  });

  it("counted per account from every address (one-time codes): 10 free, then the same back-off, other accounts untouched", async () => {
    const throttle = new LoginThrottle(shared(), "code", accountWideLimits());
    for (let i = 0; i < 10; i++) {
      expect(await throttle.retryAfter("a@x.io", anyAddress, t0)).toBe(0);
      await throttle.recordFailure("a@x.io", anyAddress, t0);
    }
    expect(await throttle.retryAfter("a@x.io", anyAddress, t0)).toBe(30);
    expect(await throttle.retryAfter("b@x.io", anyAddress, t0)).toBe(0);
    // Thousands of accounts failing do not add up to a hold on an account of their own.
    for (let i = 0; i < 1000; i++) await throttle.recordFailure(`u${i}@x.io`, anyAddress, t0);
    expect(await throttle.retryAfter("b@x.io", anyAddress, t0)).toBe(0);
  });

  it("holds back only the guessing address: the account's owner signs in from another (issue 13 #12)", async () => {
    const throttle = new LoginThrottle(shared(), "sign-in");
    for (let i = 0; i < 50; i++) await throttle.recordFailure("admin@x.io", "6.6.6.6", t0);
    expect(await throttle.retryAfter("admin@x.io", "6.6.6.6", t0)).toBeGreaterThan(0);
    expect(await throttle.retryAfter("admin@x.io", "1.2.3.4", t0)).toBe(0);
  });

  it("counts other accounts on their own", async () => {
    const throttle = new LoginThrottle(shared(), "sign-in");
    for (let i = 0; i < 5; i++) await throttle.recordFailure("a@x.io", "1.2.3.4", t0);
    expect(await throttle.retryAfter("a@x.io", "1.2.3.4", t0)).toBe(30);
    expect(await throttle.retryAfter("b@x.io", "1.2.3.4", t0)).toBe(0);
  });

  it("refuses every account from an address after 20 failures in 15 minutes", async () => {
    const throttle = new LoginThrottle(shared(), "sign-in");
    for (let i = 0; i < 19; i++) await throttle.recordFailure(`user${i}@x.io`, "1.2.3.4", t0);
    expect(await throttle.retryAfter("fresh@x.io", "1.2.3.4", t0)).toBe(0);
    await throttle.recordFailure("user19@x.io", "1.2.3.4", t0);
    expect(await throttle.retryAfter("fresh@x.io", "1.2.3.4", t0)).toBe(15 * 60);
    expect(await throttle.retryAfter("fresh@x.io", "5.6.7.8", t0)).toBe(0);
    expect(await throttle.retryAfter("fresh@x.io", "1.2.3.4", t0 + 15 * minute)).toBe(0);
  });

  it("a success forgets that address's failures on the account, not the address's overall count", async () => {
    const throttle = new LoginThrottle(shared(), "sign-in", { ...defaultThrottleLimits, perAddress: 6 });
    for (let i = 0; i < 5; i++) await throttle.recordFailure("a@x.io", "1.2.3.4", t0);
    await throttle.recordSuccess("a@x.io", "5.6.7.8");
    expect(await throttle.retryAfter("a@x.io", "1.2.3.4", t0)).toBe(30);
    await throttle.recordSuccess("a@x.io", "1.2.3.4");
    expect(await throttle.retryAfter("a@x.io", "1.2.3.4", t0)).toBe(0);
    await throttle.recordFailure("b@x.io", "1.2.3.4", t0);
    expect(await throttle.retryAfter("a@x.io", "1.2.3.4", t0)).toBe(15 * 60);
  });

  it("forgets failures after a day, and rounds the wait up to whole seconds", async () => {
    const throttle = new LoginThrottle(shared(), "sign-in");
    for (let i = 0; i < 5; i++) await throttle.recordFailure("a@x.io", "1.2.3.4", t0);
    expect(await throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 1)).toBe(30);
    expect(await throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 29_001)).toBe(1);
    await throttle.recordFailure("a@x.io", "1.2.3.4", t0 + 30 * second);
    expect(await throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 24 * 60 * minute + 30 * second)).toBe(0);
  });
});
