import { ApiError, errors } from "../errors.ts";
import { tellOwner } from "./account-mail.ts";
import { checkEmail, checkNewPassword, checkUsername, normaliseEmail } from "./account-rules.ts";
import type { Accounts, User } from "./accounts.ts";
import type { Invites } from "./invites.ts";
import { anyAddress, type LoginThrottle } from "./login-throttle.ts";
import type { Mailer, MailLog } from "./mailer.ts";
import type { OAuthClients } from "./oauth-clients.ts";
import { mayLogIn, type Permissions } from "./permissions.ts";
import { registeredUserScopes } from "./scopes.ts";
import { otpPendingLifetimeMs, rotatedSessionGraceMs, type Sessions } from "./sessions.ts";
import type { Settings } from "./settings.ts";
import type { TwoFactor } from "./two-factor.ts";

/** The throttle's account key under which open registrations of an address are counted. */
const registrationKey = "registration";

export interface IssuedSession {
  token: string;
  expiresAt: number;
  scopes: string[];
  /** Whose it is, for the activity log's sign-in entry. */
  user?: { id: number; username: string };
}

/** The second steps an account may take after its password: its app's code, one of its passkeys. */
export type SecondFactor = "otp" | "passkey";

export type LoginResult =
  | { kind: "session"; session: IssuedSession }
  | { kind: "otp"; pendingToken: string; secondFactors: SecondFactor[] };

/** The sign-in rules: password, then one-time code when enrolled; registration; client tokens. */
export class SignIn {
  constructor(
    private readonly accounts: Accounts,
    private readonly permissions: Permissions,
    private readonly sessions: Sessions,
    private readonly throttle: LoginThrottle,
    private readonly clients: OAuthClients,
    private readonly settings: Settings,
    private readonly twoFactor: TwoFactor,
    private readonly invites: Invites,
    /** Counts accounts made by open registration per address (see registrationLimits). */
    private readonly registrations: LoginThrottle,
    /** Counts wrong one-time codes per account from every address (see accountWideLimits). */
    private readonly codeGuesses: LoginThrottle,
    private readonly mailer: Mailer,
    /** How many passkeys an account holds: one makes a second step after the password (issue 39). */
    private readonly passkeyCount: (userId: number) => Promise<number>,
  ) {}

  /** The second steps this account has: none, or its code and/or its passkeys. */
  async secondFactors(user: User): Promise<SecondFactor[]> {
    const factors: SecondFactor[] = user.otpActive ? ["otp"] : [];
    if ((await this.passkeyCount(user.id)) > 0) factors.push("passkey");
    return factors;
  }

  async login(email: string, password: string, address: string): Promise<LoginResult> {
    const account = normaliseEmail(email);
    await this.throttle.refuseIfThrottled(account, address);
    const user = await this.accounts.checkPassword(account, password);
    if (!user) {
      await this.throttle.recordFailure(account, address);
      throw errors.invalidCredentials();
    }
    const scopes = await this.requireLogin(user);
    const secondFactors = await this.secondFactors(user);
    if (secondFactors.length > 0) {
      const pending = await this.sessions.create(user.id, "otp");
      return { kind: "otp", pendingToken: pending.token, secondFactors };
    }
    await this.throttle.recordSuccess(account, address);
    return { kind: "session", session: await this.issue(user, scopes) };
  }

  /**
   * Completes a login that is waiting for its code (a TOTP code or a recovery
   * code, each good once); the pending state lives 5 minutes.
   */
  async completeOtp(
    pendingToken: string | undefined,
    code: string,
    address: string,
    log: MailLog,
  ): Promise<IssuedSession> {
    if (!pendingToken) throw new ApiError(400, "ErrInvalidSession", "no login is waiting for a code");
    const pending = await this.sessions.find(pendingToken, "otp");
    if (!pending) throw new ApiError(400, "ErrSessionExpired", "the login has expired, sign in again");
    const user = await this.accounts.byId(pending.userId);
    if (!user) throw new ApiError(400, "ErrInvalidSession", "no login is waiting for a code");
    await this.throttle.refuseIfThrottled(user.email, address);
    // Per address alone, one wrong code from each of many addresses was never refused.
    await this.codeGuesses.refuseIfThrottled(user.email, anyAddress);
    if (!(await this.twoFactor.spendCode(user.id, code))) {
      await this.throttle.recordFailure(user.email, address);
      if (await this.codeGuesses.recordFailure(user.email, anyAddress)) {
        // Once per hold: whoever guesses has the password, which the owner should change.
        tellOwner(this.mailer, this.settings, user, "codeGuessesHeld", log);
      }
      throw errors.invalidCredentials();
    }
    await this.sessions.revoke(pendingToken);
    const scopes = await this.requireLogin(user);
    await this.throttle.recordSuccess(user.email, address);
    await this.codeGuesses.recordSuccess(user.email, anyAddress);
    return this.issue(user, scopes);
  }

  async register(
    input: { username: string; email: string; password: string },
    address: string,
  ): Promise<IssuedSession> {
    if (!(await this.settings.get("panel.registrationEnabled"))) {
      throw new ApiError(404, "ErrRegistrationDisabled", "registration is disabled");
    }
    await this.registrations.refuseIfThrottled(registrationKey, address);
    // An address invited but never accepted does not keep its owner from signing up; the
    // registrant gets none of what was granted to it (registering proves no mailbox). The
    // username is checked first so a refused registration leaves the invitation alone.
    const username = checkUsername(input.username);
    const email = checkEmail(input.email);
    checkNewPassword(input.password);
    await this.accounts.assertFree({ username });
    await this.invites.release(email);
    const user = await this.accounts.create({ ...input, scopes: registeredUserScopes });
    await this.registrations.recordFailure(registrationKey, address);
    return this.issue(user, [...registeredUserScopes]);
  }

  /** A fresh session for a signed-in user; the old one ends after a short grace (see rotatedSessionGraceMs). */
  async reauth(user: User, oldSessionHash: string): Promise<IssuedSession> {
    const scopes = await this.requireLogin(user);
    const session = await this.issue(user, scopes);
    await this.sessions.expireWithin(oldSessionHash, rotatedSessionGraceMs);
    return session;
  }

  /** OAuth2 client_credentials: a one-hour bearer token acting for the client. */
  async clientToken(clientId: string, secret: string): Promise<IssuedSession | undefined> {
    const client = await this.clients.authenticate(clientId, secret);
    if (!client) return undefined;
    const user = await this.accounts.byId(client.userId);
    if (!user) return undefined;
    const scopes = await this.requireLogin(user);
    const session = await this.sessions.create(user.id, "session", { clientId: client.clientId });
    await this.sessions.keepNewestOfClient(user.id, client.clientId, liveTokensPerClient);
    return { ...session, scopes: client.serverId ? client.scopes : scopes };
  }

  /**
   * A session for an account that proved itself another way (a passkey, an OpenID provider):
   * the same rule as every sign-in, the account's `login`.
   */
  async sessionFor(user: User): Promise<IssuedSession> {
    return this.issue(user, await this.requireLogin(user));
  }

  private async requireLogin(user: User): Promise<string[]> {
    const scopes = await this.permissions.globalScopes(user.id);
    if (!mayLogIn(scopes)) throw errors.loginNotPermitted();
    return scopes;
  }

  private async issue(user: User, scopes: string[]): Promise<IssuedSession> {
    const session = await this.sessions.create(user.id, "session");
    return { ...session, scopes, user: { id: user.id, username: user.username } };
  }
}

/** Live tokens one OAuth2 client holds at most; asking for another ends the oldest. */
export const liveTokensPerClient = 50;

export const otpPendingSeconds = otpPendingLifetimeMs / 1000;
