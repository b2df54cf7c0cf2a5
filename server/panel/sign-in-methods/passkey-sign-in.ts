import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { ApiError, errors } from "../../errors.ts";
import type { Accounts } from "../accounts.ts";
import type { LoginThrottle } from "../login-throttle.ts";
import type { Sessions } from "../sessions.ts";
import type { IssuedSession, SignIn } from "../sign-in.ts";
import type { Passkeys, RelyingParty } from "./passkeys.ts";

/** The throttle's account key for passkeys the panel does not know: counted per address. */
const unknownPasskey = "passkey:unknown";

/**
 * Signing in with a passkey: alone (the browser names the account through its discoverable
 * credential), or as the second step of a password sign-in waiting in its pending cookie, where
 * only that account's passkeys do. Failures count in the password sign-in's throttle, per account
 * and address, so a passkey is no way around it.
 */
export class PasskeySignIn {
  constructor(
    private readonly passkeys: Passkeys,
    private readonly sessions: Sessions,
    private readonly accounts: Accounts,
    private readonly throttle: LoginThrottle,
    private readonly signIn: SignIn,
  ) {}

  async options(
    pendingToken: string | undefined,
    rp: RelyingParty,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return this.passkeys.signInOptions(rp, pendingToken ? await this.pendingUser(pendingToken) : undefined);
  }

  async complete(
    pendingToken: string | undefined,
    response: AuthenticationResponseJSON,
    address: string,
    rp: RelyingParty,
  ): Promise<IssuedSession> {
    const forUser = pendingToken ? await this.pendingUser(pendingToken) : undefined;
    const ownerId = forUser ?? (await this.passkeys.ownerOf(response));
    const owner = ownerId === undefined ? undefined : await this.accounts.byId(ownerId);
    const account = owner?.email ?? unknownPasskey;
    await this.throttle.refuseIfThrottled(account, address);
    const signedIn = owner ? await this.passkeys.verifySignIn(response, rp, forUser) : undefined;
    if (!owner || signedIn !== owner.id) {
      await this.throttle.recordFailure(account, address);
      throw errors.invalidCredentials();
    }
    if (pendingToken) await this.sessions.revoke(pendingToken);
    const session = await this.signIn.sessionFor(owner);
    await this.throttle.recordSuccess(account, address);
    return session;
  }

  private async pendingUser(token: string): Promise<number> {
    const pending = await this.sessions.find(token, "otp");
    if (!pending) throw new ApiError(400, "ErrSessionExpired", "the login has expired, sign in again");
    return pending.userId;
  }
}
