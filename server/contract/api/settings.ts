import { type Static, Type } from "typebox";

export const SettingValue = Type.Union([Type.String(), Type.Boolean()]);
export type SettingValue = Static<typeof SettingValue>;
/** A secret setting (SMTP password, mail API key) answers value "" and whether it is set. */
export const SettingAnswer = Type.Object({ value: SettingValue, isSet: Type.Optional(Type.Boolean()) });
export type SettingAnswer = Static<typeof SettingAnswer>;
/** null clears a secret setting; "" leaves a secret setting as it is. */
export const SettingInput = Type.Union([Type.String(), Type.Boolean(), Type.Null()]);
export const SettingBody = Type.Object({ value: SettingInput });
export const SettingsBody = Type.Record(Type.String(), SettingInput);

export const SettingKeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 100 }) });

export const UserSettingBody = Type.Object({ value: Type.String({ maxLength: 4000 }) });
export const UserSettingKeyParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9._-]+$" }),
});
export const UserSettingList = Type.Array(Type.Object({ key: Type.String(), value: Type.String() }));
export type UserSettingList = Static<typeof UserSettingList>;

export const PanelConfigAnswer = Type.Object({
  themes: Type.Object({
    active: Type.String(),
    settings: Type.String(),
    available: Type.Array(Type.String()),
  }),
  branding: Type.Object({ name: Type.String() }),
  registrationEnabled: Type.Boolean(),
  /** Ours: the VAPID public key (base64url) a browser subscribes to Web Push with. */
  vapidPublicKey: Type.Optional(Type.String()),
  /** Ours (issue 39): the enabled OpenID Connect providers, a button each on the login page. */
  oidcProviders: Type.Optional(Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }))),
});
export type PanelConfigAnswer = Static<typeof PanelConfigAnswer>;
