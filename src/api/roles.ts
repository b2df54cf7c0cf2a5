import type { RoleBody, RoleView } from "../../server/contract/api/roles";
import { type CallOptions, del, get, post, put } from "./client";

// Roles (issue 39): named sets of global scopes, and who holds them. Administrators only.

export type { RoleView };

export const listRoles = (opts?: CallOptions) => get<RoleView[]>("/api/roles", opts);
export const createRole = (body: RoleBody) => post<RoleView>("/api/roles", body);
export const updateRole = (id: number, body: RoleBody) => put<RoleView>(`/api/roles/${id}`, body);
export const deleteRole = (id: number) => del<void>(`/api/roles/${id}`);
export const getUserRoles = async (id: number, opts?: CallOptions) =>
  (await get<{ roles: number[] }>(`/api/users/${id}/roles`, opts)).roles;
export const setUserRoles = (id: number, roles: number[]) =>
  put<{ roles: number[] }>(`/api/users/${id}/roles`, { roles });
