import { type Static, Type } from "typebox";
import { ScopeList } from "./server-users.ts";
import { ServerIdParams } from "./servers.ts";

/** Wire shapes of /api/servers/{id}/oauth2: OAuth2 clients bound to one server. */
export const ServerClientParams = Type.Object({
  id: ServerIdParams.properties.id,
  clientId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ServerClient = Type.Object({
  client_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  scopes: Type.Array(Type.String()),
});
export type ServerClient = Static<typeof ServerClient>;

export const ServerClientList = Type.Array(ServerClient);

/** name 1–100 characters (after trimming, checked by the service), description at most 4000. */
export const ServerClientCreateBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 4000 })),
  scopes: ScopeList,
});
export type ServerClientCreateBody = Static<typeof ServerClientCreateBody>;

/** The new client with its secret, shown this once. */
export const ServerClientCreated = Type.Object({
  client_id: Type.String(),
  client_secret: Type.String(),
  name: Type.String(),
  description: Type.String(),
  scopes: Type.Array(Type.String()),
});
export type ServerClientCreated = Static<typeof ServerClientCreated>;
