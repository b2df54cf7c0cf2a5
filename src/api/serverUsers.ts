import type { InviteAcceptBody, InviteAnswer, ServerUser } from "../../server/contract/api/server-users";
import type { ScopesAnswer } from "./auth";
import { type CallOptions, del, get, post, put } from "./client";

// A server's users (spec §7: GET /api/servers/{id}/user; GET, PUT, DELETE .../user/{email}) and
// accepting an invitation (POST /auth/invite).

export type { ServerUser };

const users = (id: string) => `/api/servers/${encodeURIComponent(id)}/user`;
const user = (id: string, email: string) => `${users(id)}/${encodeURIComponent(email.trim())}`;

export const listServerUsers = (id: string, opts?: CallOptions) => get<ServerUser[]>(users(id), opts);

/**
 * What a grant did about an invitation: nothing to say (204: an existing user, or the invitation
 * was e-mailed), a link to hand over (the panel did not e-mail it; only an administrator gets
 * one), or neither (not e-mailed, and the caller is no administrator: one must send the link).
 */
export type GrantOutcome = { invite: "none" } | { invite: "link"; url: string } | { invite: "adminMustSend" };

/**
 * Sets a user's scopes on the server (a list, or a preset's). For an address without an account (or whose invitation
 * is still open) the panel e-mails an invitation when it can; when it did not, the answer says
 * so, with the invite link for an administrator.
 */
export async function grantServerUser(
  id: string,
  email: string,
  grant: string[] | { preset: string },
): Promise<GrantOutcome> {
  const body = Array.isArray(grant) ? { scopes: grant } : grant;
  const answer = await put<InviteAnswer | "" | undefined>(user(id, email), body);
  if (!answer || typeof answer !== "object") return { invite: "none" };
  return answer.invite.url ? { invite: "link", url: answer.invite.url } : { invite: "adminMustSend" };
}

/**
 * Whether the address is an invitee who has not accepted yet: after a grant answered without a
 * link, that means the invitation was e-mailed. Undefined when it cannot be told (not listed, or
 * the caller may not view the users).
 */
export async function isPendingInvitee(id: string, email: string): Promise<boolean | undefined> {
  try {
    const [found] = await get<ServerUser[]>(user(id, email), { exempt: true });
    return found ? found.invited === true : undefined;
  } catch {
    return undefined;
  }
}

export const removeServerUser = (id: string, email: string) => del<void>(user(id, email));

// A refused link is a 400 the invite screen explains itself.
export const acceptInvite = (body: InviteAcceptBody) =>
  post<ScopesAnswer>("/auth/invite", body, { exempt: [400, 401] });
