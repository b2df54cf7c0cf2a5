import { type Static, Type } from "typebox";
import { secret } from "./secret.ts";
import { UserView } from "./self.ts";
import { Paging } from "./servers.ts";

// /api/users (reference §12.18): the administration of other users.

export const UserIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** `username=` and `email=` take `*` wildcards (the UI sends `*text*`); both given means both match. */
export const UserListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  username: Type.Optional(Type.String({ maxLength: 100 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
});
export type UserListQuery = Static<typeof UserListQuery>;

export const UserList = Type.Object({ users: Type.Array(UserView), paging: Paging });
export type UserList = Static<typeof UserList>;

export const UserCreateBody = Type.Object({
  username: Type.String({ maxLength: 100 }),
  email: Type.String({ maxLength: 255 }),
  password: secret(Type.String({ maxLength: 1024 })),
});
export type UserCreateBody = Static<typeof UserCreateBody>;

/** POST /api/users/{id}: any of the three; an administrator sets a password without the old one. */
export const UserUpdateBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 100 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  password: Type.Optional(secret(Type.String({ maxLength: 1024 }))),
});
export type UserUpdateBody = Static<typeof UserUpdateBody>;

export const ScopesBody = Type.Object({
  scopes: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 }),
});
export type ScopesBody = Static<typeof ScopesBody>;
