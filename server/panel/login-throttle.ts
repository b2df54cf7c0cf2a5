import { ApiError } from "../errors.ts";
import type { SharedState } from "./shared-state.ts";

/**
 * Holds back guessing at sign-in (password, one-time code, invite link, SFTP).
 * Kept in the database (shared-state.ts): every panel sharing it counts the
 * same failures, so adding a panel adds no attempts; a restart forgets nothing.
 *
 * - One address on one account: a few failures are free, then each further
 *   one waits longer (doubling, up to a cap) until a success from that address
 *   forgets them. Only that address waits: the account's owner signing in from
 *   elsewhere is not locked out by someone guessing. (The account-wide lock this
 *   replaces let anyone lock out anyone, the administrator included.)
 * - One address on any accounts: too many failures in a window hold back that
 *   address for every account (spraying one password over many accounts).
 *
 * Guessing a password from many addresses at one account is slowed per
 * address only; passwords are hashed with a memory-hard hash, so each guess
 * costs the guesser's addresses more than it costs the panel. The one-time
 * code of the second step is also counted per account (accountWideLimits):
 * whoever reaches that step already holds the password.
 */
export interface ThrottleLimits {
  /** Failures of one address on one account before it waits. */
  freeAttempts: number;
  /** The first wait after those; each further failure doubles it, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long the failures of one address on one account count (a success there forgets them). */
  memoryMs: number;
  /** Failures from one address, on any accounts, within windowMs before that address waits. */
  perAddress: number;
  windowMs: number;
}

export const defaultThrottleLimits: ThrottleLimits = {
  freeAttempts: 5,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  memoryMs: 24 * 60 * 60_000,
  perAddress: 20,
  windowMs: 15 * 60_000,
};

export class LoginThrottle {
  /**
   * @param name what is counted ("sign-in", "registration", …): each throttle's keys are its own.
   */
  constructor(
    private readonly shared: SharedState,
    private readonly name: string,
    private readonly limits: ThrottleLimits = defaultThrottleLimits,
  ) {}

  /** Seconds until the next attempt is allowed, or 0 when it is allowed now. */
  async retryAfter(account: string, address: string, now = Date.now()): Promise<number> {
    const pair = this.pairKey(account, address);
    const spread = this.addressKey(address);
    const times = await this.shared.times(
      this.countsAddress ? [pair, spread] : [pair],
      now - Math.max(this.limits.memoryMs, this.limits.windowMs),
    );
    const wait = Math.max(
      this.backOff(recent(times.get(pair), this.limits.memoryMs, now), now),
      this.addressWait(recent(times.get(spread), this.limits.windowMs, now), now),
    );
    return Math.ceil(wait / 1000);
  }

  /** 429 ErrTooManyAttempts, with the seconds to wait, while this address is held back on the account. */
  async refuseIfThrottled(account: string, address: string): Promise<void> {
    const retryAfter = await this.retryAfter(account, address);
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

  /** Counts a failure; answers true when it is the one that starts holding this address back on the account. */
  async recordFailure(account: string, address: string, now = Date.now()): Promise<boolean> {
    const pair = this.pairKey(account, address);
    const events = [{ key: pair, keepMs: this.limits.memoryMs }];
    // Throttles without a per-address limit (registrations, codes under anyAddress) keep no such count.
    if (this.countsAddress) events.push({ key: this.addressKey(address), keepMs: this.limits.windowMs });
    await this.shared.record(events, now);
    const count = recent(
      (await this.shared.times([pair], now - this.limits.memoryMs)).get(pair),
      this.limits.memoryMs,
      now,
    ).length;
    return count === this.limits.freeAttempts;
  }

  /** A success forgets the failures of this address on this account (not the address's overall count). */
  async recordSuccess(account: string, address: string): Promise<void> {
    await this.shared.forget(this.pairKey(account, address));
  }

  private get countsAddress(): boolean {
    return this.limits.perAddress < Number.MAX_SAFE_INTEGER;
  }

  private backOff(list: number[], now: number): number {
    const beyond = list.length - this.limits.freeAttempts;
    if (beyond < 0) return 0;
    const delay = Math.min(this.limits.firstDelayMs * 2 ** beyond, this.limits.maxDelayMs);
    return Math.max(0, list[list.length - 1] + delay - now);
  }

  private addressWait(list: number[], now: number): number {
    if (list.length < this.limits.perAddress) return 0;
    return list[list.length - this.limits.perAddress] + this.limits.windowMs - now;
  }

  private pairKey(account: string, address: string): string {
    return `${this.name}:p:${account}\n${address}`;
  }

  private addressKey(address: string): string {
    return `${this.name}:i:${address}`;
  }
}

/** The times of a list that lie within keepMs before now. */
const recent = (list: number[] | undefined, keepMs: number, now: number) =>
  (list ?? []).filter((t) => t > now - keepMs);

/**
 * Open registration from one address: a few accounts are free, then each
 * further one waits longer (the same back-off as sign-in, counting accounts
 * made instead of failures), so one address cannot fill the panel with accounts.
 */
export function registrationLimits(freeAccounts: number): ThrottleLimits {
  return {
    freeAttempts: freeAccounts,
    firstDelayMs: 60_000,
    maxDelayMs: 60 * 60_000,
    memoryMs: 24 * 60 * 60_000,
    perAddress: Number.MAX_SAFE_INTEGER,
    windowMs: 60_000,
  };
}

/**
 * One account from every address: the one-time codes of the second step,
 * counted under `anyAddress`. A few wrong codes are free, then each further
 * one waits longer, as at the password step; a right code forgets them.
 * Holding back the account's code step locks out only someone who already
 * has its password, and its owner is told (SignIn.completeOtp).
 */
export function accountWideLimits(): ThrottleLimits {
  return {
    freeAttempts: 10,
    firstDelayMs: 30_000,
    maxDelayMs: 15 * 60_000,
    memoryMs: 24 * 60 * 60_000,
    perAddress: Number.MAX_SAFE_INTEGER,
    windowMs: 60_000,
  };
}

/** The address under which a throttle with accountWideLimits counts every attempt. */
export const anyAddress = "*";
