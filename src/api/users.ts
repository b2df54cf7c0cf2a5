import type { UserView } from "../../server/contract/api/self";
import type {
  UserCreateBody,
  UserList,
  UserListQuery,
  UserUpdateBody,
} from "../../server/contract/api/users";
import { type CallOptions, del, get, post, put } from "./client";

// /api/users (spec §7 Users, reference §12.18). Types come from the server's wire schemas.

export type User = UserView;
export type UserPage = UserList;

const base = (id: number) => `/api/users/${id}`;

export const listUsers = (query: UserListQuery = {}, opts?: CallOptions) =>
  get<UserPage>("/api/users", { ...opts, query: { ...opts?.query, ...query } });
export const createUser = (body: UserCreateBody, opts?: CallOptions) => post<User>("/api/users", body, opts);
export const getUser = (id: number, opts?: CallOptions) => get<User>(base(id), opts);
export const updateUser = (id: number, body: UserUpdateBody, opts?: CallOptions) =>
  post<void>(base(id), body, opts);
export const deleteUser = (id: number, opts?: CallOptions) => del<void>(base(id), opts);
export const getUserScopes = async (id: number, opts?: CallOptions) =>
  (await get<{ scopes: string[] }>(`${base(id)}/perms`, opts)).scopes;
export const setUserScopes = (id: number, scopes: string[], opts?: CallOptions) =>
  put<void>(`${base(id)}/perms`, { scopes }, opts);

/**
 * Users whose username or e-mail contains the text (spec §7 Other: both searches, merged without
 * duplicate ids, capped).
 */
export async function searchUsers(text: string, limit: number, opts?: CallOptions): Promise<User[]> {
  const pattern = `*${text}*`;
  const [byName, byEmail] = await Promise.all([
    listUsers({ username: pattern, limit }, opts),
    listUsers({ email: pattern, limit }, opts),
  ]);
  const seen = new Map<number, User>();
  for (const u of [...byName.users, ...byEmail.users]) if (!seen.has(u.id)) seen.set(u.id, u);
  return [...seen.values()].slice(0, limit);
}
