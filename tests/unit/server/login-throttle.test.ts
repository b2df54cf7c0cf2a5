import { describe, expect, it } from "vitest";
import { defaultThrottleLimits, LoginThrottle } from "../../../server/panel/login-throttle.ts";

const minute = 60_000;
const t0 = 1_700_000_000_000;

describe("LoginThrottle", () => {
  it("uses 5 per account and 20 per address in 15 minutes by default", () => {
    expect(defaultThrottleLimits).toEqual({ windowMs: 15 * minute, perAccount: 5, perAddress: 20 });
  });

  it("allows 5 failures on an account, then refuses until the oldest leaves the window", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) {
      expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0 + i * minute)).toBe(0);
      throttle.recordFailure("a@x.io", "1.2.3.4", t0 + i * minute);
    }
    // The oldest failure (t0) leaves the window at t0 + 15 min.
    expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 5 * minute)).toBe(10 * 60);
    expect(throttle.retryAfter("a@x.io", "9.9.9.9", t0 + 5 * minute)).toBe(10 * 60);
    expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 15 * minute - 500)).toBe(1);
    expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 15 * minute)).toBe(0);
    // Only one slot came free: the next failure closes it again, until t0 + 16 min.
    throttle.recordFailure("a@x.io", "1.2.3.4", t0 + 15 * minute);
    expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 15 * minute)).toBe(60);
  });

  it("counts other accounts on their own", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) throttle.recordFailure("a@x.io", "1.2.3.4", t0);
    expect(throttle.retryAfter("b@x.io", "1.2.3.4", t0)).toBe(0);
  });

  it("refuses every account from an address after 20 failures", () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 19; i++) throttle.recordFailure(`user${i}@x.io`, "1.2.3.4", t0);
    expect(throttle.retryAfter("fresh@x.io", "1.2.3.4", t0)).toBe(0);
    throttle.recordFailure("user19@x.io", "1.2.3.4", t0);
    expect(throttle.retryAfter("fresh@x.io", "1.2.3.4", t0)).toBe(15 * 60);
    expect(throttle.retryAfter("fresh@x.io", "5.6.7.8", t0)).toBe(0);
  });

  it("clears an account's count on success, but not its address's", () => {
    const throttle = new LoginThrottle({ windowMs: 15 * minute, perAccount: 5, perAddress: 6 });
    for (let i = 0; i < 5; i++) throttle.recordFailure("a@x.io", "1.2.3.4", t0);
    throttle.recordSuccess("a@x.io");
    expect(throttle.retryAfter("a@x.io", "5.6.7.8", t0)).toBe(0);
    throttle.recordFailure("b@x.io", "1.2.3.4", t0);
    expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0)).toBe(15 * 60);
  });

  it("rounds the wait up to whole seconds", () => {
    const throttle = new LoginThrottle({ windowMs: 10_000, perAccount: 1, perAddress: 100 });
    throttle.recordFailure("a@x.io", "1.2.3.4", t0);
    expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 1)).toBe(10);
    expect(throttle.retryAfter("a@x.io", "1.2.3.4", t0 + 9_001)).toBe(1);
  });
});
