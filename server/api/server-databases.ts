import type { FastifyRequest } from "fastify";
import {
  ServerDatabaseBody,
  ServerDatabaseList,
  ServerDatabaseParams,
  ServerDatabaseView,
} from "../contract/api/databases.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { holdsScope } from "../panel/scopes.ts";
import { requireServerScopes } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Passwords (and the connection strings that hold them) only for holders of view.password. */
const seesPasswords = (request: FastifyRequest) =>
  holdsScope(requireServerScopes(request), "server.databases.view.password");

/** A server's databases (issue 36) under /api/servers/{id}/databases. */
export function serverDatabaseRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { serverDatabases } = services;

  api.get(
    "/api/servers/:id/databases",
    {
      config: { access: "server.databases.view" },
      schema: { params: ServerIdParams, response: { 200: ServerDatabaseList } },
    },
    (request) => serverDatabases.list(request.params.id, seesPasswords(request)),
  );

  api.post(
    "/api/servers/:id/databases",
    {
      config: { access: "server.databases.create" },
      schema: { params: ServerIdParams, body: ServerDatabaseBody, response: { 200: ServerDatabaseView } },
    },
    (request) => serverDatabases.create(request.params.id, request.body, seesPasswords(request)),
  );

  api.delete(
    "/api/servers/:id/databases/:dbId",
    { config: { access: "server.databases.delete" }, schema: { params: ServerDatabaseParams } },
    async (request, reply) => {
      await serverDatabases.delete(request.params.id, request.params.dbId);
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/servers/:id/databases/:dbId/rotate-password",
    {
      config: { access: "server.databases.rotate" },
      schema: { params: ServerDatabaseParams, response: { 200: ServerDatabaseView } },
    },
    (request) => serverDatabases.rotate(request.params.id, request.params.dbId, seesPasswords(request)),
  );
}
