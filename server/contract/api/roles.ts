import { type Static, Type } from "typebox";
import { ScopeList } from "./server-users.ts";

/** Roles (issue 39): named sets of global scopes that users hold besides their own. */
const roleId = () => Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const RoleView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  /** Its users must set up two-factor sign-in before anything else. */
  require2fa: Type.Boolean(),
  /** How many users hold it. */
  users: Type.Integer(),
});
export type RoleView = Static<typeof RoleView>;
export const RoleList = Type.Array(RoleView);

export const RoleParams = Type.Object({ id: roleId() });

/** `scopes` may name a family with `.*` (`nodes.*`): it is stored as the scopes it stands for. */
export const RoleBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: ScopeList,
  require2fa: Type.Optional(Type.Boolean()),
});
export type RoleBody = Static<typeof RoleBody>;

export const UserRolesBody = Type.Object({ roles: Type.Array(roleId(), { maxItems: 100 }) });

export const UserRolesAnswer = Type.Object({ roles: Type.Array(Type.Integer()) });
