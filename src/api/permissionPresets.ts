import type { PermissionPresetView } from "../../server/contract/api/permission-presets";
import { type CallOptions, del, get, post, put } from "./client";

// Presets of server scopes (issue 39): read by whoever adds server users, written by administrators.

export type { PermissionPresetView };

export const listPermissionPresets = (opts?: CallOptions) =>
  get<PermissionPresetView[]>("/api/permission-presets", opts);
export const createPermissionPreset = (body: { name: string; scopes: string[] }) =>
  post<PermissionPresetView>("/api/permission-presets", body);
export const updatePermissionPreset = (id: string, body: { name: string; scopes: string[] }) =>
  put<PermissionPresetView>(`/api/permission-presets/${encodeURIComponent(id)}`, body);
export const deletePermissionPreset = (id: string) =>
  del<void>(`/api/permission-presets/${encodeURIComponent(id)}`);
