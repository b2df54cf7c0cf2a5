import { type Static, Type } from "typebox";
import { ScopeList } from "./server-users.ts";

/** Presets of server scopes (issue 39): the four built-in ones and those administrators defined. */
export const PresetId = Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-z0-9][a-z0-9-]*$" });

export const PermissionPresetView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  /** The four shipped with the panel: neither changed nor deleted. */
  builtIn: Type.Boolean(),
});
export type PermissionPresetView = Static<typeof PermissionPresetView>;
export const PermissionPresetList = Type.Array(PermissionPresetView);

export const PermissionPresetParams = Type.Object({ id: PresetId });

const presetFields = { name: Type.String({ minLength: 1, maxLength: 100 }), scopes: ScopeList };

/** A new preset; its id is made from the name when none is given. */
export const PermissionPresetCreateBody = Type.Object({ id: Type.Optional(PresetId), ...presetFields });
export type PermissionPresetCreateBody = Static<typeof PermissionPresetCreateBody>;

export const PermissionPresetUpdateBody = Type.Object(presetFields);
export type PermissionPresetUpdateBody = Static<typeof PermissionPresetUpdateBody>;
