import type {
  DatabaseHostBody,
  DatabaseHostView,
  ServerDatabaseList,
  ServerDatabaseView,
} from "../../server/contract/api/databases";
import { type CallOptions, del, get, post, put } from "./client";

// Database hosts (administrators) and a server's databases (issue 36).

export type DatabaseHost = DatabaseHostView;
export type DatabaseHostInput = DatabaseHostBody;
export type ServerDatabase = ServerDatabaseView;
export type ServerDatabases = ServerDatabaseList;

export const listDatabaseHosts = (opts?: CallOptions) => get<DatabaseHost[]>("/api/database-hosts", opts);
export const createDatabaseHost = (body: DatabaseHostInput) =>
  post<DatabaseHost>("/api/database-hosts", body);
export const updateDatabaseHost = (id: number, body: DatabaseHostInput) =>
  put<DatabaseHost>(`/api/database-hosts/${id}`, body);
/** `forget`: the host still holds databases and is gone for good; the panel forgets them. */
export const deleteDatabaseHost = (id: number, { forget = false } = {}) =>
  del<void>(`/api/database-hosts/${id}${forget ? "?forget=true" : ""}`);
/** Connects as the panel's account: the version, or an error that says what failed. */
export const testDatabaseHost = (id: number) =>
  post<{ ok: true; version: string }>(`/api/database-hosts/${id}/test`);

const base = (id: string) => `/api/servers/${encodeURIComponent(id)}/databases`;

export const listServerDatabases = (id: string, opts?: CallOptions) => get<ServerDatabases>(base(id), opts);
export const createServerDatabase = (id: string, body: { host?: number; name: string }) =>
  post<ServerDatabase>(base(id), body);
export const deleteServerDatabase = (id: string, dbId: number) => del<void>(`${base(id)}/${dbId}`);
export const rotateDatabasePassword = (id: string, dbId: number) =>
  post<ServerDatabase>(`${base(id)}/${dbId}/rotate-password`);
