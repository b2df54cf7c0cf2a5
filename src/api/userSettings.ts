import { get, put } from "./client";

export interface UserSetting {
  key: string;
  value: string;
}

// Preferences sync in the background: a failure (offline) is not worth an error message.
export const getUserSettings = () => get<UserSetting[]>("/api/userSettings", { exempt: true });
export const putUserSetting = (key: string, value: string) =>
  put<void>(`/api/userSettings/${encodeURIComponent(key)}`, { value }, { exempt: true });
