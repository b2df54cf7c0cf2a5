import { type Static, Type } from "typebox";
import { serverIdPattern } from "../constants.ts";
import { FlagsBody } from "../node/server-wire.ts";

export const ServerIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, pattern: serverIdPattern.source }),
});

export const ServerNodeView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  publicHost: Type.String(),
  publicPort: Type.Integer(),
  /** Where the node's SFTP listens (on publicHost), for the server view's SFTP section. */
  sftpPort: Type.Integer(),
});

/** A server as lists and views show it (reference §12.6). */
export const ServerView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  node: ServerNodeView,
  ip: Type.Optional(Type.String()),
  port: Type.Optional(Type.Integer()),
  type: Type.String(),
  icon: Type.Optional(Type.String()),
  canGetStatus: Type.Optional(Type.Boolean()),
});
export type ServerView = Static<typeof ServerView>;

export const Paging = Type.Object({
  page: Type.Integer(),
  pageSize: Type.Integer(),
  maxSize: Type.Integer(),
  total: Type.Integer(),
});
export type Paging = Static<typeof Paging>;

export const ServerList = Type.Object({ servers: Type.Array(ServerView), paging: Paging });
export type ServerList = Static<typeof ServerList>;

export const ServerListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  name: Type.Optional(Type.String({ maxLength: 100 })),
  node: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ServerListQuery = Static<typeof ServerListQuery>;

export const ServerWithPerms = Type.Object({
  server: ServerView,
  permissions: Type.Union([Type.Object({ scopes: Type.Array(Type.String()) }), Type.Null()]),
});
export type ServerWithPerms = Static<typeof ServerWithPerms>;

/** The create body: a template/definition plus where it runs, its name and who may use it. */
export const ServerCreateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100 })),
    node: Type.Optional(Type.Integer({ minimum: 0 })),
    users: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
  },
  { additionalProperties: true },
);

/** POST/PUT …/data: `{data: {name: value}}`; a full variable object is also taken (its `value`). */
const VariableInput = Type.Union([
  Type.String(),
  Type.Number(),
  Type.Boolean(),
  Type.Object({ value: Type.Any() }, { additionalProperties: true }),
]);

/**
 * Variable values, either as `{data: {name: value}}` (what the reference UI sends) or as the
 * reference's flat `{name: value}` map (what its API clients send); `dataValues` tells them apart.
 * Values may be bare or `{value}`.
 */
export const ServerDataBody = Type.Record(
  Type.String(),
  Type.Union([VariableInput, Type.Record(Type.String(), VariableInput)]),
);

/** POST/PUT …/flags: the flags to change, passed to the node as they are. */
export { FlagsBody };
