import { ApiError } from "../errors.ts";
import type { SharedState } from "./shared-state.ts";

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
 * mailed a fresh link) or to mail address after address. Counted in the
 * database, as the sign-in throttle is (shared-state.ts): every panel counts
 * the same mails.
 */
export class InviteMailThrottle {
  constructor(
    private readonly shared: SharedState,
    private readonly limits: InviteMailLimits = defaultInviteMailLimits,
  ) {}

  /** Seconds until one more invitation may be mailed to this address by this inviter (0: now). */
  async retryAfter(email: string, inviter: number | "admin", now = Date.now()): Promise<number> {
    const keys = [`invite-mail:a:${email}`];
    if (inviter !== "admin") keys.push(`invite-mail:u:${inviter}`);
    const times = await this.shared.times(keys, now - this.limits.windowMs);
    const waits = [this.wait(times.get(keys[0]) ?? [], this.limits.perAddress, now)];
    if (inviter !== "admin") waits.push(this.wait(times.get(keys[1]) ?? [], this.limits.perInviter, now));
    return Math.ceil(Math.max(...waits) / 1000);
  }

  /** 429 ErrTooManyAttempts (the code clients already show with its wait), with the seconds to wait, while no invitation may be mailed. */
  async refuseIfThrottled(email: string, inviter: number): Promise<void> {
    const retryAfter = await this.retryAfter(email, inviter);
    if (retryAfter > 0) {
      throw new ApiError(
        429,
        "ErrTooManyAttempts",
        "too many invitations were mailed, try again in ${retryAfter} s",
        { retryAfter },
      );
    }
  }

  async recordSent(email: string, inviter: number | "admin", now = Date.now()): Promise<void> {
    const events = [{ key: `invite-mail:a:${email}`, keepMs: this.limits.windowMs }];
    if (inviter !== "admin") events.push({ key: `invite-mail:u:${inviter}`, keepMs: this.limits.windowMs });
    await this.shared.record(events, now);
  }

  /** How long until fewer than `limit` mails of the list lie within the window. */
  private wait(list: number[], limit: number, now: number): number {
    if (list.length < limit) return 0;
    return list[list.length - limit] + this.limits.windowMs - now;
  }
}
