import { type Static, Type } from "typebox";

export const SettingValue = Type.Union([Type.String(), Type.Boolean()]);
export const SettingAnswer = Type.Object({ value: SettingValue });
export type SettingAnswer = Static<typeof SettingAnswer>;
export const SettingBody = Type.Object({ value: SettingValue });
export const SettingsBody = Type.Record(Type.String(), SettingValue);

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
});
export type PanelConfigAnswer = Static<typeof PanelConfigAnswer>;
