import type {
  ServerClient,
  ServerClientCreateBody,
  ServerClientCreated,
} from "../../server/contract/api/server-clients";
import { type CallOptions, del, get, post } from "./client";

// OAuth2 clients bound to one server: their tokens act on that server only, with their scopes.

export type { ServerClient, ServerClientCreated };

const clients = (id: string) => `/api/servers/${encodeURIComponent(id)}/oauth2`;

export const listServerClients = (id: string, opts?: CallOptions) => get<ServerClient[]>(clients(id), opts);

export const createServerClient = (id: string, body: ServerClientCreateBody) =>
  post<ServerClientCreated>(clients(id), body);

export const deleteServerClient = (id: string, clientId: string) =>
  del<void>(`${clients(id)}/${encodeURIComponent(clientId)}`);
