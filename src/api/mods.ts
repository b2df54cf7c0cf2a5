import type {
  InstalledMod,
  ModSearchView,
  ModSourceId,
  ModVersionView,
  ServerModsView,
} from "../../server/contract/api/mods";
import { type CallOptions, del, get, post } from "./client";

// A server's mods and plugins (issue 37): what is in its folder, the sources' search, installs.

export type { InstalledMod, ModSearchView, ModSourceId, ModVersionView, ServerModsView };

const base = (id: string) => `/api/servers/${encodeURIComponent(id)}/mods`;

export const listMods = (id: string, opts?: CallOptions) => get<ServerModsView>(base(id), opts);
export const searchMods = (id: string, source: ModSourceId, q: string) =>
  get<ModSearchView>(`${base(id)}/search`, { query: { source, q } });
export const modVersions = (id: string, source: ModSourceId, projectId: string) =>
  get<ModVersionView[]>(`${base(id)}/versions`, { query: { source, projectId } });
export const installMod = (id: string, body: { source: ModSourceId; projectId: string; versionId: string }) =>
  post<{ files: string[] }>(base(id), body);
export const removeMod = (id: string, file: string) => del<void>(`${base(id)}/${encodeURIComponent(file)}`);
