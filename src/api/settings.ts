import { type CallOptions, get, post } from "./client";

// Panel settings (scope settings.edit). GET answers {value}; a write-only secret (the SMTP
// password, an API key) answers {value: "", isSet} instead.
export interface SettingAnswer<T> {
  value: T;
  isSet?: boolean;
}
export const getSettingAnswer = <T = unknown>(key: string, opts?: CallOptions) =>
  get<SettingAnswer<T> | undefined>(`/api/settings/${encodeURIComponent(key)}`, opts);
/** For a secret: "" leaves it as it is, null clears it, any other text replaces it. */
export const postSettings = (values: Record<string, unknown>) => post<void>("/api/settings", values);
export const testEmail = (opts?: CallOptions) => post<void>("/api/settings/test/email", undefined, opts);
