import { get, put } from "./client";

export interface UserSetting {
  key: string;
  value: string;
}

export const getUserSettings = () => get<UserSetting[]>("/api/userSettings");
export const putUserSetting = (key: string, value: string) =>
  put<void>(`/api/userSettings/${encodeURIComponent(key)}`, { value });
