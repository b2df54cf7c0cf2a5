// The editable panel settings the screen shows (reference §10.3), and what a save sends.

export const textKeys = [
  "panel.settings.companyName",
  "panel.settings.masterUrl",
  "panel.settings.defaultTheme",
  "panel.email.provider",
  "panel.email.from",
  "panel.email.host",
  "panel.email.username",
] as const;
export type TextKey = (typeof textKeys)[number];

/** Write-only: the panel says only whether one is set. */
export const secretKeys = ["panel.email.password"] as const;
export type SecretKey = (typeof secretKeys)[number];

export const REGISTRATION = "panel.registrationEnabled";
export const SFTP_PASSWORD_WITH_2FA = "panel.sftp.passwordWith2fa";
/** The on/off settings the screen shows as switches. */
export const flagKeys = [REGISTRATION, SFTP_PASSWORD_WITH_2FA] as const;
export type FlagKey = (typeof flagKeys)[number];

/** The providers this panel can send with ("" and "none" both mean no e-mail). */
export const PROVIDERS = ["none", "smtp", "debug"] as const;

export interface SettingsValues {
  text: Record<TextKey, string>;
  flags: Record<FlagKey, boolean>;
  /** Whether each secret is set on the panel. */
  secretSet: Record<SecretKey, boolean>;
}

/** A secret's edit: keep it, replace it with a new value, or clear it. */
export type SecretEdit = { kind: "keep" } | { kind: "replace"; value: string } | { kind: "clear" };

/** Only what changed; a secret is sent as its new text, or null to clear it. */
export function changes(
  saved: SettingsValues,
  text: Record<TextKey, string>,
  flags: Record<FlagKey, boolean>,
  secrets: Record<SecretKey, SecretEdit>,
): Record<string, string | boolean | null> {
  const out: Record<string, string | boolean | null> = {};
  for (const key of textKeys) if (text[key] !== saved.text[key]) out[key] = text[key];
  for (const key of flagKeys) if (flags[key] !== saved.flags[key]) out[key] = flags[key];
  for (const key of secretKeys) {
    const edit = secrets[key];
    if (edit.kind === "replace" && edit.value !== "") out[key] = edit.value;
    if (edit.kind === "clear") out[key] = null;
  }
  return out;
}
