import { ApiError } from "../errors.ts";

/**
 * Holds back guessing at sign-in (password, one-time code, invite link, SFTP).
 * Kept in memory: a restart forgets it, and each panel process counts on its own.
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
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limits: ThrottleLimits = defaultThrottleLimits) {}

  /** Seconds until the next attempt is allowed, or 0 when it is allowed now. */
  retryAfter(account: string, address: string, now = Date.now()): number {
    const wait = Math.max(this.backOff(account, address, now), this.addressWait(address, now));
    return Math.ceil(wait / 1000);
  }

  /** 429 ErrTooManyAttempts, with the seconds to wait, while this address is held back on the account. */
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

  /** Counts a failure; answers true when it is the one that starts holding this address back on the account. */
  recordFailure(account: string, address: string, now = Date.now()): boolean {
    const count = this.push(pairKey(account, address), this.limits.memoryMs, now);
    // Throttles without a per-address limit (registrations, codes under anyAddress) keep no such count.
    if (this.limits.perAddress < Number.MAX_SAFE_INTEGER)
      this.push(`i:${address}`, this.limits.windowMs, now);
    if (this.failures.size > 100_000) this.prune(now);
    return count === this.limits.freeAttempts;
  }

  /** A success forgets the failures of this address on this account (not the address's overall count). */
  recordSuccess(account: string, address: string): void {
    this.failures.delete(pairKey(account, address));
  }

  private backOff(account: string, address: string, now: number): number {
    const list = this.recent(pairKey(account, address), this.limits.memoryMs, now);
    const beyond = list.length - this.limits.freeAttempts;
    if (beyond < 0) return 0;
    const delay = Math.min(this.limits.firstDelayMs * 2 ** beyond, this.limits.maxDelayMs);
    return Math.max(0, list[list.length - 1] + delay - now);
  }

  private addressWait(address: string, now: number): number {
    const list = this.recent(`i:${address}`, this.limits.windowMs, now);
    if (list.length < this.limits.perAddress) return 0;
    return list[list.length - this.limits.perAddress] + this.limits.windowMs - now;
  }

  /** Adds a failure under key; answers how many it now holds. */
  private push(key: string, keepMs: number, now: number): number {
    const list = this.recent(key, keepMs, now);
    list.push(now);
    this.failures.set(key, list);
    return list.length;
  }

  private recent(key: string, keepMs: number, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > now - keepMs);
  }

  private prune(now: number): void {
    for (const [key, list] of this.failures) {
      const keep = key.startsWith("i:") ? this.limits.windowMs : this.limits.memoryMs;
      if (!list.some((t) => t > now - keep)) this.failures.delete(key);
    }
  }
}

const pairKey = (account: string, address: string) => `p:${account}\n${address}`;

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
