import type { InviteAcceptBody, InviteAnswer, ServerUser } from "../../server/wire/server-users";
import type { ScopesAnswer } from "./auth";
import { type CallOptions, del, get, post, put } from "./client";

// A server's users (spec §7: GET /api/servers/{id}/user; GET, PUT, DELETE .../user/{email}) and
// accepting an invitation (POST /auth/invite).

export type { ServerUser };

const users = (id: string) => `/api/servers/${encodeURIComponent(id)}/user`;
const user = (id: string, email: string) => `${users(id)}/${encodeURIComponent(email.trim())}`;

export const listServerUsers = (id: string, opts?: CallOptions) => get<ServerUser[]>(users(id), opts);

/**
 * Sets a user's scopes on the server. For an address without an account (or whose invitation
 * is still open) the answer carries the invite link to hand over; otherwise it is empty (204).
 */
export async function grantServerUser(
  id: string,
  email: string,
  scopes: string[],
): Promise<string | undefined> {
  const answer = await put<InviteAnswer | "" | undefined>(user(id, email), { scopes });
  return answer && typeof answer === "object" ? answer.invite.url : undefined;
}

export const removeServerUser = (id: string, email: string) => del<void>(user(id, email));

// A refused link is a 400 the invite screen explains itself.
export const acceptInvite = (body: InviteAcceptBody) =>
  post<ScopesAnswer>("/auth/invite", body, { exempt: [400, 401] });
