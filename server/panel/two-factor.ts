import type { Db } from "../db/database.ts";
import { ApiError, errors } from "../errors.ts";
import { type AccountEvent, tellOwner } from "./account-mail.ts";
import type { Accounts, User } from "./accounts.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import type { Mailer, MailLog } from "./mailer.ts";
import type { Settings } from "./settings.ts";
import { tokenHash } from "./tokens.ts";

export interface Enrolment {
  secret: string;
  /** The otpauth:// URI an authenticator app takes (also what the QR code holds). */
  uri: string;
  /** The QR code of `uri` as a data URL. */
  img: string;
}

// TOTP and QR codes (otpauth, uqr) load with the first two-factor action, not at the panel's start.
const otp = () => import("./otp.ts");

const notEnabled = () => new ApiError(400, "ErrOtpNotEnabled", "two-factor sign-in is not enabled");

/**
 * Two-factor sign-in (reference §3.4): enrolment, the code check used by sign-in
 * and by the account page, and recovery codes. Every code works once: a TOTP
 * code's time step is claimed with one conditional UPDATE and a recovery code
 * is deleted by the statement that checks it, so two requests racing with the
 * same code cannot both pass.
 */
export class TwoFactor {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly settings: Settings,
    private readonly throttle: LoginThrottle,
    private readonly mailer: Mailer,
  ) {}

  async status(userId: number): Promise<{ otpEnabled: boolean; recoveryCodesLeft: number }> {
    const state = await this.accounts.otpState(userId);
    const row = await this.db
      .selectFrom("otp_recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return { otpEnabled: state.active, recoveryCodesLeft: state.active ? Number(row.n) : 0 };
  }

  /**
   * A new secret waiting for its first code. Unlike the reference, which switches
   * two-factor off here, an active secret stays in force until the new one is
   * confirmed: a stolen session cannot turn two-factor off by starting over.
   */
  async startEnrolment(user: User): Promise<Enrolment> {
    const { newOtpSecret, otpQrDataUrl, otpUri } = await otp();
    const secret = newOtpSecret();
    await this.accounts.setOtp(user.id, { pendingSecret: secret });
    const issuer = String(await this.settings.get("panel.settings.companyName"));
    const uri = otpUri(secret, user.email, issuer);
    return { secret, uri, img: otpQrDataUrl(uri) };
  }

  /** Confirms the pending secret with a code from it; answers the first recovery codes. */
  async confirmEnrolment(user: User, code: string, address: string, log: MailLog): Promise<string[]> {
    await this.throttle.refuseIfThrottled(user.email, address);
    const state = await this.accounts.otpState(user.id);
    if (!state.pendingSecret) {
      throw new ApiError(400, "ErrOtpNotPending", "start two-factor enrolment first");
    }
    const step = (await otp()).otpStep(state.pendingSecret, code.trim());
    if (step === undefined) {
      await this.throttle.recordFailure(user.email, address);
      throw errors.invalidCredentials();
    }
    await this.throttle.recordSuccess(user.email, address);
    // The confirming code counts as used: it cannot sign anyone in afterwards.
    await this.accounts.setOtp(user.id, {
      secret: state.pendingSecret,
      pendingSecret: null,
      active: true,
      lastStep: step,
    });
    const codes = await this.replaceRecoveryCodes(user.id);
    this.tell(user, "otpEnabled", log);
    return codes;
  }

  /** Turns two-factor off after a valid code or recovery code; its recovery codes go with it. */
  async disable(user: User, code: string, address: string, log: MailLog): Promise<void> {
    await this.requireCode(user, code, address);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ otp_secret: null, otp_pending_secret: null, otp_active: 0 })
        .where("id", "=", user.id)
        .execute();
      await trx.deleteFrom("otp_recovery_codes").where("user_id", "=", user.id).execute();
    });
    this.tell(user, "otpDisabled", log);
  }

  /** New recovery codes after a valid code or recovery code; the old ones stop working. */
  async regenerateRecoveryCodes(user: User, code: string, address: string, log: MailLog): Promise<string[]> {
    await this.requireCode(user, code, address);
    const codes = await this.replaceRecoveryCodes(user.id);
    this.tell(user, "recoveryCodesRegenerated", log);
    return codes;
  }

  private tell(user: User, event: AccountEvent, log: MailLog): void {
    tellOwner(this.mailer, this.settings, user, event, log);
  }

  /**
   * Whether a TOTP code or a recovery code is good for this user now, using it
   * up if it is. Anything else (no two-factor, wrong format) is simply false.
   */
  async spendCode(userId: number, typed: string): Promise<boolean> {
    const state = await this.accounts.otpState(userId);
    if (!state.active || !state.secret) return false;
    const { normaliseRecoveryCode, otpStep } = await otp();
    const code = typed.trim();
    const step = otpStep(state.secret, code);
    if (step !== undefined) return this.accounts.claimOtpStep(userId, step);
    const recovery = normaliseRecoveryCode(code);
    if (!recovery) return false;
    const gone = await this.db
      .deleteFrom("otp_recovery_codes")
      .where("user_id", "=", userId)
      .where("code_hash", "=", tokenHash(recovery))
      .executeTakeFirst();
    return Number(gone.numDeletedRows) === 1;
  }

  /** A code for an account-page action; guessing is throttled like sign-in. */
  private async requireCode(user: User, code: string, address: string): Promise<void> {
    await this.throttle.refuseIfThrottled(user.email, address);
    if (!(await this.accounts.otpState(user.id)).active) throw notEnabled();
    if (!(await this.spendCode(user.id, code))) {
      await this.throttle.recordFailure(user.email, address);
      throw errors.invalidCredentials();
    }
    await this.throttle.recordSuccess(user.email, address);
  }

  private async replaceRecoveryCodes(userId: number): Promise<string[]> {
    const codes = (await otp()).newRecoveryCodes();
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("otp_recovery_codes").where("user_id", "=", userId).execute();
      await trx
        .insertInto("otp_recovery_codes")
        .values(codes.map((code) => ({ user_id: userId, code_hash: tokenHash(code), created_at: now })))
        .execute();
    });
    return codes;
  }
}
