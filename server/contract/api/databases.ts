import { type Static, Type } from "typebox";
import { secret } from "./secret.ts";
import { ServerIdParams } from "./servers.ts";

/**
 * Database hosts and servers' databases (issue 36). A host is a MySQL/MariaDB ("mysql") or
 * PostgreSQL server the panel holds an account on; a server's database is made there with one
 * user that may use only it.
 */
export const DatabaseType = Type.Union([Type.Literal("mysql"), Type.Literal("postgres")]);
export type DatabaseType = Static<typeof DatabaseType>;

/** What follows `s<serverId>_`: letters, digits and _ (the host's limit leaves room for the prefix). */
export const databaseNamePattern = /^[A-Za-z0-9_]{1,48}$/;
export const databaseNameMax = 48;

const id = () => Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const nodeList = Type.Array(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), { maxItems: 1000 });

export const DatabaseHostView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: DatabaseType,
  host: Type.String(),
  port: Type.Integer(),
  username: Type.String(),
  /** Always "": the password is write-only. */
  password: Type.String(),
  passwordSet: Type.Boolean(),
  /** The nodes whose servers it serves; null for every node. */
  nodes: Type.Union([nodeList, Type.Null()]),
  maxDatabases: Type.Union([Type.Integer(), Type.Null()]),
  /** How many databases it holds now. */
  databases: Type.Integer(),
});
export type DatabaseHostView = Static<typeof DatabaseHostView>;
export const DatabaseHostList = Type.Array(DatabaseHostView);

const hostFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  type: DatabaseType,
  host: Type.String({ minLength: 1, maxLength: 255 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  username: Type.String({ minLength: 1, maxLength: 80 }),
  password: secret(Type.String({ maxLength: 256 })),
  nodes: Type.Optional(Type.Union([nodeList, Type.Null()])),
  maxDatabases: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000 }), Type.Null()])),
};

/** POST: the password is required (checked by the service, so "" gets the same answer as none). */
export const DatabaseHostBody = Type.Object(
  { ...hostFields, password: Type.Optional(hostFields.password) },
  { additionalProperties: false },
);
export type DatabaseHostBody = Static<typeof DatabaseHostBody>;

export const DatabaseHostParams = Type.Object({ id: id() });

/**
 * `?forget=true`: remove a host that still holds databases, for a host that is gone for good.
 * The panel forgets those databases (nothing is dropped on the host) so their servers can be
 * deleted; without it a host that cannot be reached would keep them, and itself, for ever.
 */
export const DatabaseHostDeleteQuery = Type.Object(
  { forget: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const DatabaseHostTestAnswer = Type.Object({
  ok: Type.Literal(true),
  /** What the server says it is, e.g. "10.11.6-MariaDB-0+deb12u1". */
  version: Type.String(),
});

export const DatabaseState = Type.Union([Type.Literal("ready"), Type.Literal("creating")]);

/** A server's database. `password` only for holders of server.databases.view.password. */
export const ServerDatabaseView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  password: Type.Optional(Type.String()),
  state: DatabaseState,
  host: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    type: DatabaseType,
    address: Type.String(),
    port: Type.Integer(),
  }),
  /** `jdbc:mysql://host:port/name` or `jdbc:postgresql://…`, for Minecraft plugins. */
  jdbc: Type.String(),
  /** `mysql://user[:password]@host:port/name` or `postgres://…`; the password only with view.password. */
  url: Type.String(),
  createdAt: Type.String(),
});
export type ServerDatabaseView = Static<typeof ServerDatabaseView>;

export const ServerDatabaseList = Type.Object({
  databases: Type.Array(ServerDatabaseView),
  /** How many the server may hold (PUT /api/servers/{id}/limits). */
  limit: Type.Integer(),
  /** The hosts a new database of this server may go to (those serving its node, not full). */
  hosts: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), type: DatabaseType })),
});
export type ServerDatabaseList = Static<typeof ServerDatabaseList>;

/** POST /api/servers/{id}/databases: without `host`, the panel picks one that serves the node. */
export const ServerDatabaseBody = Type.Object(
  { host: Type.Optional(id()), name: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type ServerDatabaseBody = Static<typeof ServerDatabaseBody>;

export const ServerDatabaseParams = Type.Object({ id: ServerIdParams.properties.id, dbId: id() });
