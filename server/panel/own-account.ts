import { errors } from "../errors.ts";
import { type AccountEvent, tellOwner } from "./account-mail.ts";
import { checkNewPassword } from "./account-rules.ts";
import type { Accounts, User } from "./accounts.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import type { Mailer, MailLog } from "./mailer.ts";
import type { OAuthClient, OAuthClients } from "./oauth-clients.ts";
import type { Sessions } from "./sessions.ts";
import type { Settings } from "./settings.ts";

export interface OwnAccountChange {
  username?: string;
  email?: string;
  /** The current password, required for every change. */
  password?: string;
  newPassword?: string;
}

/**
 * A user changing their own account: username, e-mail or password (PUT
 * /api/self), each only with the current password; their own OAuth clients.
 * Each change is e-mailed to the owner.
 */
export class OwnAccount {
  constructor(
    private readonly accounts: Accounts,
    private readonly sessions: Sessions,
    private readonly throttle: LoginThrottle,
    private readonly mailer: Mailer,
    private readonly settings: Settings,
    private readonly clients: OAuthClients,
  ) {}

  /**
   * Checks everything before writing anything, so a refused change leaves the
   * account as it was. A new password signs out every other session of the
   * account (this one stays). The owner is told by e-mail; an e-mail change is
   * told to the address it replaces, where the real owner still reads.
   */
  async change(user: User, sessionHash: string, input: OwnAccountChange, address: string, log: MailLog) {
    if (!input.password) throw errors.fieldRequired("password");
    // A stolen session must not become a way to guess the password: same throttle as sign-in.
    await this.throttle.refuseIfThrottled(user.email, address);
    // A wrong current password is a client error (400), not a 500 as in the reference panel.
    if (!(await this.accounts.checkPasswordOf(user.id, input.password))) {
      await this.throttle.recordFailure(user.email, address);
      throw errors.invalidCredentials();
    }
    await this.throttle.recordSuccess(user.email, address);
    if (input.newPassword !== undefined) checkNewPassword(input.newPassword, "newPassword");
    await this.accounts.update(user.id, { username: input.username, email: input.email });
    const after = (await this.accounts.byId(user.id)) ?? user;
    if (after.email !== user.email) this.tell(user, "emailChanged", log);
    if (input.newPassword !== undefined) {
      await this.accounts.setPassword(user.id, input.newPassword, "newPassword");
      await this.sessions.revokeAllOf(user.id, sessionHash);
      this.tell(after, "passwordChanged", log);
    }
  }

  async createClient(
    user: User,
    input: { name: string; description?: string },
    log: MailLog,
  ): Promise<{ client: OAuthClient; secret: string }> {
    const created = await this.clients.createOwn(user.id, input);
    this.tell(user, "oauthCreated", log);
    return created;
  }

  async deleteClient(user: User, clientId: string, log: MailLog): Promise<void> {
    await this.clients.deleteOwn(user.id, clientId);
    this.tell(user, "oauthDeleted", log);
  }

  private tell(user: User, event: AccountEvent, log: MailLog): void {
    tellOwner(this.mailer, this.settings, user, event, log);
  }
}
