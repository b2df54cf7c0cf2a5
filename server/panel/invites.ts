import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError, errors } from "../errors.ts";
import {
  checkEmail,
  checkNewPassword,
  checkUsername,
  normaliseEmail,
  pendingPasswordHash,
} from "./account-rules.ts";
import type { Accounts, User } from "./accounts.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { hashPassword } from "./passwords.ts";
import { mayLogIn, type Permissions } from "./permissions.ts";
import { registeredUserScopes } from "./scopes.ts";
import type { Sessions } from "./sessions.ts";
import type { IssuedSession } from "./sign-in.ts";
import { tokenHash } from "./tokens.ts";

export const inviteLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export { pendingPasswordHash };

const invalidLink = () => new ApiError(400, "ErrInviteLinkInvalid", "this invite link is not valid");

/** A username from the e-mail's local part, made long enough and free (the invitee may change it). */
async function freeUsername(db: Db, email: string): Promise<string> {
  let base = email
    .split("@")[0]
    .replace(/[^A-Za-z0-9._~-]/g, "")
    .slice(0, 90);
  if (base.length < 5) base = `${base || "user"}-user`.slice(0, 90);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken = await db
      .selectFrom("users")
      .select("id")
      .where("username", "=", candidate)
      .executeTakeFirst();
    if (!taken) return candidate;
  }
  return `${base}-${Date.now().toString(36)}`;
}

/**
 * Invited users: accounts made for an e-mail address that has no account yet,
 * and the one-time links (sessions of kind "invite", stored as their hash,
 * valid 7 days) with which they choose a username and password.
 */
export class Invites {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly permissions: Permissions,
    private readonly sessions: Sessions,
    private readonly throttle: LoginThrottle,
  ) {}

  /**
   * Creates the invited account. Unlike the reference, which gives invitees no
   * global scopes (so they cannot sign in until an administrator grants
   * `login`), they get what a registered user gets.
   */
  async createInvitee(emailInput: string): Promise<User> {
    const email = checkEmail(emailInput);
    await this.accounts.assertFree({ email });
    const username = await freeUsername(this.db, email);
    const created = this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("users")
        .values({
          username,
          email,
          password_hash: pendingPasswordHash,
          otp_active: 0,
          otp_last_step: 0,
          created_at: Date.now(),
        })
        .returning(["id"])
        .executeTakeFirstOrThrow();
      await this.permissions.within(trx).setGlobalScopes(row.id, registeredUserScopes);
      return { id: row.id, username, email, otpActive: false };
    });
    // Two invitations of the same address (or two usernames derived alike) raced.
    return created.catch((err: unknown) => {
      throw isUniqueViolation(err) ? errors.userExists("email") : err;
    });
  }

  /** Whether the user was invited and has not chosen a password yet. */
  async isPending(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", userId)
      .executeTakeFirst();
    return row?.password_hash === pendingPasswordHash;
  }

  /** A new invite link token for a pending invitee; earlier links stay valid until used or expired. */
  async issue(userId: number): Promise<string> {
    const { token } = await this.sessions.create(userId, "invite", { lifetimeMs: inviteLifetimeMs });
    return token;
  }

  /** Ends a link that reached no one (it was neither mailed nor answered). */
  async withdraw(token: string): Promise<void> {
    await this.sessions.revoke(token);
  }

  /**
   * Removes the pending account of this address, if there is one, with what was
   * granted to it. Registration calls it: registering proves no mailbox, so it
   * must not inherit grants meant for the mailbox, and an invitation must not
   * keep the address's owner from signing up (squatting).
   */
  async release(emailInput: string): Promise<void> {
    await this.db
      .deleteFrom("users")
      .where("email", "=", normaliseEmail(emailInput))
      .where("password_hash", "=", pendingPasswordHash)
      .execute();
  }

  /**
   * Accepts an invite: the token must be live and belong to this e-mail's
   * pending account. The username and password are checked before anything is
   * written; the token is consumed in the same transaction that sets them, so
   * a refused username leaves the link usable. Failures count like failed
   * logins (same throttle), so links cannot be guessed. Answers a signed-in
   * session, as registration does.
   */
  async accept(
    input: { token: string; email: string; username: string; password: string },
    address: string,
  ): Promise<IssuedSession> {
    const email = normaliseEmail(input.email);
    await this.throttle.refuseIfThrottled(email, address);
    const invite = input.token ? await this.sessions.find(input.token, "invite") : undefined;
    const user = invite ? await this.accounts.byId(invite.userId) : undefined;
    if (!invite || !user || user.email !== email || !(await this.isPending(user.id))) {
      await this.throttle.recordFailure(email, address);
      throw invalidLink();
    }
    const username = checkUsername(input.username);
    const password_hash = await hashPassword(checkNewPassword(input.password));
    await this.accounts.assertFree({ username }, user.id);
    await this.db
      .transaction()
      .execute(async (trx) => {
        const used = await trx
          .deleteFrom("sessions")
          .where("token_hash", "=", tokenHash(input.token))
          .where("kind", "=", "invite")
          .executeTakeFirst();
        // Another request used the link meanwhile.
        if (Number(used.numDeletedRows) !== 1) throw invalidLink();
        await trx.updateTable("users").set({ username, password_hash }).where("id", "=", user.id).execute();
        // The other links sent to this address are spent with this one.
        await trx
          .deleteFrom("sessions")
          .where("user_id", "=", user.id)
          .where("kind", "=", "invite")
          .execute();
      })
      .catch((err: unknown) => {
        // Someone took the username since the check; the link was not spent.
        throw isUniqueViolation(err) ? errors.userExists("username") : err;
      });
    await this.throttle.recordSuccess(email, address);
    const scopes = await this.permissions.globalScopes(user.id);
    if (!mayLogIn(scopes)) throw errors.loginNotPermitted();
    const session = await this.sessions.create(user.id, "session");
    return { ...session, scopes, user: { id: user.id, username } };
  }
}
