import type { ServerUser } from "../contract/api/server-users.ts";
import { defaultServerUserScopes, serverScopes } from "../contract/scopes.ts";
import type { Db } from "../db/database.ts";
import { ApiError, errors } from "../errors.ts";
import { checkEmail, normaliseEmail } from "./account-rules.ts";
import type { Accounts } from "./accounts.ts";
import { invitationMail } from "./invite-mail.ts";
import type { InviteMailThrottle } from "./invite-mail-throttle.ts";
import type { Invites } from "./invites.ts";
import type { Mailer, MailLog } from "./mailer.ts";
import type { PermissionPresets } from "./permission-presets.ts";
import type { Permissions } from "./permissions.ts";
import { holdsScope, isServerScope } from "./scopes.ts";
import { assertServerExists } from "./server-exists.ts";
import type { Settings } from "./settings.ts";

/** What a grant asks for: scopes, or a preset's id in their place (neither: the default). */
export interface GrantRequest {
  scopes?: string[];
  preset?: string;
}

/** Who asks for a change, and what they hold on the server (global and server rows together). */
export interface ServerEditor {
  userId: number;
  held: string[];
}

/**
 * An invitation made by a grant: mailed; or not mailed, with the link for an
 * administrator to hand over; or not mailed and no link (the editor is no
 * administrator: one must send it).
 */
export interface GrantInvite {
  mailed: boolean;
  url?: string;
}

/** Every requested scope must be a server scope (400 names the first that is not). */
export function checkServerScopes(requested: readonly string[]): string[] {
  for (const scope of requested) {
    if (!isServerScope(scope)) {
      throw new ApiError(400, "ErrFieldInvalid", "${field} is not valid: ${scope} is not a server scope", {
        field: "scopes",
        scope,
      });
    }
  }
  return [...new Set(requested)];
}

/** Whoever holds server.admin there (or admin) may set any server scope; others only what they hold. */
export function mayReplaceAll(held: readonly string[]): boolean {
  return holdsScope(held, "server.admin");
}

/**
 * The scopes a target ends up with. An editor holding server.admin (on the
 * server or globally) or admin replaces them wholesale (reference §2.3).
 * Anyone else toggles only the scopes they hold themselves — added when
 * requested, removed when not — and every other scope of the target stays as
 * it was. (The reference means this too, but intersects the target's *old*
 * scopes instead of the requested ones, so a non-admin's request is ignored;
 * here it is applied.) So no one, editing their own row or another's, can hand
 * out a scope they do not hold. `server.view` is always kept (reference §2.2).
 */
export function resultingScopes(
  held: readonly string[],
  current: readonly string[],
  requested: readonly string[],
) {
  const wanted = new Set(requested);
  let result: string[];
  if (mayReplaceAll(held)) {
    result = [...wanted];
  } else {
    const mine = new Set(held.filter(isServerScope));
    result = serverScopes.filter((s) => (mine.has(s) ? wanted.has(s) : current.includes(s)));
    // Scopes of the target this panel does not know stay too.
    result.push(...current.filter((s) => !isServerScope(s)));
  }
  if (!result.includes("server.view")) result.unshift("server.view");
  return result;
}

/** The users of one server: who has a server-level permission row there, and with which scopes. */
export class ServerUsers {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly permissions: Permissions,
    private readonly invites: Invites,
    private readonly settings: Settings,
    private readonly mailer: Mailer,
    /** Invitation mails per address and per inviter (issue 13: grants could flood a mailbox). */
    private readonly mailThrottle: InviteMailThrottle,
    private readonly presets: PermissionPresets,
    /** Called when a user's rights on a server change, so their open connections there follow. */
    private readonly rightsChanged: (userId: number, serverId: string) => void = () => {},
  ) {}

  async list(serverId: string, email?: string): Promise<ServerUser[]> {
    await assertServerExists(this.db, serverId);
    const members = await this.permissions.membersOf(
      serverId,
      email === undefined ? undefined : normaliseEmail(email),
    );
    return members.map((member) => {
      const user: ServerUser = { username: member.username, email: member.email, scopes: member.scopes };
      if (member.invited) user.invited = true;
      return user;
    });
  }

  /**
   * Sets a user's scopes on the server. An unknown address becomes an invited
   * user, who gets a new invite link — as does a user still pending from an
   * earlier invitation. What becomes of the link is `invite`'s story.
   */
  async grant(
    serverId: string,
    emailInput: string,
    request: GrantRequest,
    editor: ServerEditor,
    log: MailLog,
  ): Promise<{ invite?: GrantInvite }> {
    await assertServerExists(this.db, serverId);
    const scopes = await this.requestedScopes(request);
    const email = checkEmail(emailInput);
    let user = await this.accounts.byEmail(email);
    const current = user ? await this.permissions.serverScopes(user.id, serverId) : undefined;
    // Changing someone's scopes here needs server.users.edit; adding someone new to the server,
    // server.users.create is enough.
    if (current !== undefined && !holdsScope(editor.held, "server.users.edit")) {
      throw errors.missingScope("server.users.edit");
    }
    if (!holdsScope(editor.held, "server.users.edit") && !holdsScope(editor.held, "server.users.create")) {
      throw errors.missingScope("server.users.edit");
    }
    // A grant to an unknown or pending address mails an invitation: refused before anything is
    // written while that address (or this inviter) has had its share. An administrator is not
    // refused: their grant goes through and the link is answered to them instead.
    const invites = !user || (await this.invites.isPending(user.id));
    if (invites && !editor.held.includes("admin"))
      await this.mailThrottle.refuseIfThrottled(email, editor.userId);
    user ??= await this.invites.createInvitee(email);
    await this.permissions.grant(user.id, serverId, resultingScopes(editor.held, current ?? [], scopes));
    if (current !== undefined) this.rightsChanged(user.id, serverId);
    if (!(await this.invites.isPending(user.id))) return {};
    return { invite: await this.invite(serverId, user.email, user.id, editor, log) };
  }

  /**
   * The scopes a grant asks for. No list and no preset: what a user named at server creation gets
   * (one default for both ways in, the Viewer preset). A preset gives the editor no more than a
   * list would: the same rule (resultingScopes) keeps what they do not hold out.
   */
  private async requestedScopes(request: GrantRequest): Promise<string[]> {
    if (request.scopes !== undefined && request.preset !== undefined)
      throw new ApiError(400, "ErrFieldInvalid", "${field} is not valid: give scopes or a preset, not both", {
        field: "preset",
      });
    if (request.preset !== undefined) return this.presets.scopesOf(request.preset);
    return checkServerScopes(request.scopes ?? defaultServerUserScopes);
  }

  /**
   * A fresh invite link for a pending account, e-mailed when the panel can send
   * mail. The link signs in as that account, which may hold grants on other
   * servers, so only the mailbox or an administrator may ever receive it: a link
   * that was not mailed is answered to an administrator to hand over, and
   * withdrawn for anyone else (who learns that an administrator must send it).
   * (Before, any editor got it: granting an address invited elsewhere handed
   * them that account.) Earlier links are never reset or shown.
   */
  private async invite(
    serverId: string,
    email: string,
    userId: number,
    editor: ServerEditor,
    log: MailLog,
  ): Promise<GrantInvite> {
    const token = await this.invites.issue(userId);
    const url = await this.inviteUrl(token, email);
    const admin = editor.held.includes("admin");
    const inviter = admin ? "admin" : editor.userId;
    // An address that has had its share of invitations gets no more for a while.
    if ((await this.mailThrottle.retryAfter(email, inviter)) === 0) {
      const mail = await this.invitation(serverId, email, url, token, editor);
      if ((await this.mailer.send(mail, log)) === "sent") {
        await this.mailThrottle.recordSent(email, inviter);
        return { mailed: true };
      }
    }
    if (admin) return { mailed: false, url };
    await this.invites.withdraw(token);
    return { mailed: false };
  }

  private async invitation(serverId: string, to: string, url: string, token: string, editor: ServerEditor) {
    const server = await this.db
      .selectFrom("servers")
      .select("name")
      .where("id", "=", serverId)
      .executeTakeFirst();
    const inviter = await this.accounts.byId(editor.userId);
    return invitationMail({
      to,
      url,
      token,
      inviter: inviter?.username ?? "Someone",
      serverName: server?.name || serverId,
      company: String(await this.settings.get("panel.settings.companyName")),
    });
  }

  /**
   * Removes the user's row on this server and nothing else. An editor who may
   * not replace scopes wholesale may only remove a user whose scopes there
   * they all hold themselves (else removing and re-adding would strip scopes
   * they cannot toggle); leaving a server oneself is always allowed.
   */
  async remove(serverId: string, email: string, editor: ServerEditor): Promise<void> {
    await assertServerExists(this.db, serverId);
    const user = await this.accounts.byEmail(email);
    const current = user ? await this.permissions.serverScopes(user.id, serverId) : undefined;
    if (!user || current === undefined) throw errors.userNotFound();
    if (user.id !== editor.userId && !mayReplaceAll(editor.held)) {
      const beyond = current.find((s) => isServerScope(s) && !holdsScope(editor.held, s));
      if (beyond) throw errors.missingScope(beyond);
    }
    await this.permissions.revoke(user.id, serverId);
    this.rightsChanged(user.id, serverId);
  }

  private async inviteUrl(token: string, email: string): Promise<string> {
    const base = String(await this.settings.get("panel.settings.masterUrl")).replace(/\/+$/, "");
    const query = new URLSearchParams({ token, email });
    return `${base}/auth/invite?${query}`;
  }
}
