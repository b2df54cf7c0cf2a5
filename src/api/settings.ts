import { get, post, put } from "./client";

// Panel settings (scope settings.edit). GET answers {value}.
export const getSetting = async <T = unknown>(key: string) =>
  (await get<{ value: T } | undefined>(`/api/settings/${encodeURIComponent(key)}`))?.value;
export const putSetting = (key: string, value: unknown) =>
  put<void>(`/api/settings/${encodeURIComponent(key)}`, { value });
export const postSettings = (values: Record<string, unknown>) => post<void>("/api/settings", values);
export const testEmail = () => post<void>("/api/settings/test/email");
