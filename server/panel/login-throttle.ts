import { ApiError } from "../errors.ts";

/**
 * Counts failed sign-ins per account and per client address in a sliding
 * window and refuses further attempts once a limit is reached, until the
 * oldest failure leaves the window. Kept in memory: a restart forgets it,
 * and each panel process counts on its own.
 */
export interface ThrottleLimits {
  windowMs: number;
  perAccount: number;
  perAddress: number;
}

export const defaultThrottleLimits: ThrottleLimits = { windowMs: 15 * 60_000, perAccount: 5, perAddress: 20 };

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limits: ThrottleLimits = defaultThrottleLimits) {}

  /** Seconds until the next attempt is allowed, or 0 when it is allowed now. */
  retryAfter(account: string, address: string, now = Date.now()): number {
    const wait = Math.max(
      this.waitFor(`a:${account}`, this.limits.perAccount, now),
      this.waitFor(`i:${address}`, this.limits.perAddress, now),
    );
    return Math.ceil(wait / 1000);
  }

  /** 429 ErrTooManyAttempts, with the seconds to wait, while the account or the address is held back. */
  refuseIfThrottled(account: string, address: string): void {
    const retryAfter = this.retryAfter(account, address);
    if (retryAfter > 0) {
      throw new ApiError(
        429,
        "ErrTooManyAttempts",
        "too many failed attempts, try again in ${retryAfter} s",
        {
          retryAfter,
        },
      );
    }
  }

  recordFailure(account: string, address: string, now = Date.now()): void {
    for (const key of [`a:${account}`, `i:${address}`]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
    if (this.failures.size > 100_000) this.prune(now);
  }

  /** A successful sign-in clears the account's count (not the address's). */
  recordSuccess(account: string): void {
    this.failures.delete(`a:${account}`);
  }

  private waitFor(key: string, limit: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < limit) return 0;
    return list[list.length - limit] + this.limits.windowMs - now;
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - this.limits.windowMs);
  }

  private prune(now: number): void {
    for (const key of this.failures.keys()) {
      if (this.recent(key, now).length === 0) this.failures.delete(key);
    }
  }
}
