import { createHash, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/database.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import { normaliseEmail } from "./account-rules.ts";
import type { Accounts } from "./accounts.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import type { Permissions } from "./permissions.ts";
import { holdsScope } from "./scopes.ts";
import type { Settings } from "./settings.ts";
import type { SshKeys } from "./sign-in-methods/ssh-keys.ts";

/** Whether a password alone lets an account with two-factor sign-in use SFTP (off: keys only). */
export const sftpPasswordWith2faSetting = "panel.sftp.passwordWith2fa";

export interface SftpLoginCheck {
  email: string;
  serverId: string;
  /** The panel password, for a password sign-in. */
  password?: string;
  /**
   * For a key sign-in: the key as an OpenSSH line (`ssh-ed25519 AAAA…`). The node has checked
   * that the client holds its private half (the signature), or asks first whether it would be
   * let in with it (`probe`), as SSH asks before the client signs.
   */
  publicKey?: string;
  /** Only asks whether this key would be let in: nothing is counted, nothing is let in. */
  probe?: boolean;
  /** Where the SFTP client connects from, for the per-address throttle. */
  address: string;
}

/** An SFTP sign-in let in: who, and whether the session may change files. */
export interface SftpAccess {
  userId: number;
  write: boolean;
}

/**
 * Who may use SFTP (reference §8): the panel account's password or one of its
 * SSH keys (issue 39), then `server.sftp` on that
 * server — its own row or the global one, `admin` and `server.admin`
 * included — and the server must live on the node asking. Every refusal
 * looks the same and costs the same password check; failed passwords count
 * in the sign-in throttle the web login uses, per account and per address.
 *
 * Beyond the reference, SFTP sees what the web file manager sees: signing in
 * also needs `server.files.view` (reading is all a session without it could
 * do), and the session may change files only with `server.files.edit`;
 * without it the node keeps the session read-only.
 *
 * SFTP clients have no place to type a one-time code, so the password alone
 * would open the files of an account that has two-factor sign-in: such an
 * account signs in with a key, unless an administrator turns on
 * `panel.sftp.passwordWith2fa`. An account that must still set up two-factor
 * (a role's `require2fa`, the panel's `panel.security.require2fa`) is refused
 * by password and by key alike, as the web refuses it all but enrolment. A key's failures count in the same throttle as
 * passwords; a probe (which key would do?) counts nothing, as it proves nothing.
 */
export class SftpAuth {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly permissions: Permissions,
    private readonly throttle: LoginThrottle,
    /** Node secrets are stored sealed (see nodes.ts). */
    private readonly box: SecretBox,
    private readonly keys: SshKeys,
    private readonly settings: Settings,
    /** An account with a passkey has a second step too (issue 39). */
    private readonly passkeyCount: (userId: number) => Promise<number>,
  ) {}

  /** Who signs in and what they may do when the login may use SFTP there; undefined for every refusal. */
  async allows(login: SftpLoginCheck, nodeId: number): Promise<SftpAccess | undefined> {
    const account = normaliseEmail(login.email);
    if ((await this.throttle.retryAfter(account, login.address)) > 0) return undefined;
    const user = await this.signer(account, login);
    if (!user) {
      if (!login.probe) await this.throttle.recordFailure(account, login.address);
      return undefined;
    }
    // Held to enrol two-factor first (a role's or the panel's requirement), the account reaches
    // nothing but its own account page on the web (guard.ts): nor here, by password or by key.
    if (await this.mustEnrolTwoFactor(user)) return undefined;
    if (
      login.publicKey === undefined &&
      (user.otpActive || (await this.passkeyCount(user.id)) > 0) &&
      !(await this.settings.get(sftpPasswordWith2faSetting))
    )
      return undefined;
    const server = await this.db
      .selectFrom("servers")
      .select("node_id")
      .where("id", "=", login.serverId)
      .executeTakeFirst();
    if (!server || server.node_id !== nodeId) return undefined;
    // The reference lets anyone with the password in; an account an administrator barred from
    // signing in (no `login`) holds nothing here either (permissions.ts).
    const held = await this.permissions.scopesOn(user.id, login.serverId);
    if (!holdsScope(held, "server.sftp") || !holdsScope(held, "server.files.view")) return undefined;
    if (!login.probe) await this.throttle.recordSuccess(account, login.address);
    return { userId: user.id, write: holdsScope(held, "server.files.edit") };
  }

  /** The web's rule (principal.ts): no app code nor passkey yet, and one of its roles or the panel requires it. */
  private async mustEnrolTwoFactor(user: { id: number; otpActive: boolean }): Promise<boolean> {
    if (user.otpActive || (await this.passkeyCount(user.id)) > 0) return false;
    if ((await this.permissions.roleGrantsOf([user.id])).get(user.id)?.require2fa) return true;
    return (await this.settings.get("panel.security.require2fa")) === true;
  }

  /** The account the password or key opens; a login with neither opens none. */
  private async signer(account: string, login: SftpLoginCheck) {
    if (login.publicKey !== undefined) {
      const user = await this.accounts.byEmail(account);
      return user && (await this.keys.holds(user.id, login.publicKey, !login.probe)) ? user : undefined;
    }
    if (login.password === undefined) return undefined;
    return this.accounts.checkPassword(account, login.password);
  }

  /** The remote node holding this secret, compared in constant time; undefined for none. */
  async nodeBySecret(secret: string): Promise<number | undefined> {
    const offered = digest(secret);
    let found: number | undefined;
    for (const node of await this.db.selectFrom("nodes").select(["id", "secret"]).execute()) {
      if (timingSafeEqual(offered, digest(this.box.open(node.secret))) && found === undefined)
        found = node.id;
    }
    return found;
  }
}

/** Equal-length digests, so the comparison takes the same time whatever the lengths. */
const digest = (text: string) => createHash("sha256").update(text).digest();
