import { ApiError } from "../errors.ts";

export interface InviteMailLimits {
  /** Invitation mails one address receives within windowMs, from everyone together. */
  perAddress: number;
  /** Invitation mails one user sends within windowMs (administrators are not counted). */
  perInviter: number;
  windowMs: number;
}

export const defaultInviteMailLimits: InviteMailLimits = {
  perAddress: 3,
  perInviter: 20,
  windowMs: 60 * 60_000,
};

/**
 * Holds back invitation mails, so that a server user allowed to add people
 * cannot use the panel to flood an address (each grant to a pending account
 * mailed a fresh link) or to mail address after address. Kept in memory, as
 * the sign-in throttle is: a restart forgets it.
 */
export class InviteMailThrottle {
  private readonly sent = new Map<string, number[]>();

  constructor(private readonly limits: InviteMailLimits = defaultInviteMailLimits) {}

  /** Seconds until one more invitation may be mailed to this address by this inviter (0: now). */
  retryAfter(email: string, inviter: number | "admin", now = Date.now()): number {
    const waits = [this.wait(`a:${email}`, this.limits.perAddress, now)];
    if (inviter !== "admin") waits.push(this.wait(`u:${inviter}`, this.limits.perInviter, now));
    return Math.ceil(Math.max(...waits) / 1000);
  }

  /** 429 ErrTooManyAttempts (the code clients already show with its wait), with the seconds to wait, while no invitation may be mailed. */
  refuseIfThrottled(email: string, inviter: number): void {
    const retryAfter = this.retryAfter(email, inviter);
    if (retryAfter > 0) {
      throw new ApiError(
        429,
        "ErrTooManyAttempts",
        "too many invitations were mailed, try again in ${retryAfter} s",
        { retryAfter },
      );
    }
  }

  recordSent(email: string, inviter: number | "admin", now = Date.now()): void {
    this.push(`a:${email}`, now);
    if (inviter !== "admin") this.push(`u:${inviter}`, now);
    if (this.sent.size > 100_000) this.prune(now);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.sent.get(key) ?? []).filter((t) => t > now - this.limits.windowMs);
    if (list.length > 0) this.sent.set(key, list);
    else this.sent.delete(key);
    return list;
  }

  /** How long until fewer than `limit` mails under this key lie within the window. */
  private wait(key: string, limit: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < limit) return 0;
    return list[list.length - limit] + this.limits.windowMs - now;
  }

  private push(key: string, now: number): void {
    const list = this.recent(key, now);
    list.push(now);
    this.sent.set(key, list);
  }

  private prune(now: number): void {
    for (const key of [...this.sent.keys()]) this.recent(key, now);
  }
}
