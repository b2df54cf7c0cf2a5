import type { SettingAnswer } from "../../server/contract/api/settings";
import { type CallOptions, get, post } from "./client";

// Panel settings (scope settings.edit). GET answers {value}; a write-only secret (the SMTP
// password, an API key) answers {value: "", isSet} instead. T: the setting's own type, a string
// or a boolean (SettingAnswer says either).
export const getSettingAnswer = <T extends SettingAnswer["value"] = SettingAnswer["value"]>(
  key: string,
  opts?: CallOptions,
) =>
  get<(Omit<SettingAnswer, "value"> & { value: T }) | undefined>(
    `/api/settings/${encodeURIComponent(key)}`,
    opts,
  );
/** For a secret: "" leaves it as it is, null clears it, any other text replaces it. */
export const postSettings = (values: Record<string, unknown>) => post<void>("/api/settings", values);
export const testEmail = (opts?: CallOptions) => post<void>("/api/settings/test/email", undefined, opts);
