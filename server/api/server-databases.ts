import type { FastifyRequest } from "fastify";
import {
  ServerDatabaseBody,
  ServerDatabaseList,
  ServerDatabaseParams,
  ServerDatabaseView,
} from "../contract/api/databases.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { ApiError } from "../errors.ts";
import { holdsScope } from "../panel/scopes.ts";
import { requirePrincipal, requireServerScopes } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Passwords (and the connection strings that hold them) only for holders of view.password. */
const seesPasswords = (request: FastifyRequest) =>
  holdsScope(requireServerScopes(request), "server.databases.view.password");

/** The errors whose `reason` is the host's own words (panel/databases/engine.ts). */
const carriesHostWords = new Set([
  "ErrDatabaseHostUnreachable",
  "ErrDatabaseHostPrivileges",
  "ErrDatabaseHostFailed",
]);

/**
 * What a database host said (the `reason` of its errors) can name the panel's own account on it
 * and the panel's address ("Access denied for user 'panel'@'10.0.0.5' …"): a server user is
 * told the host's error code instead, and the log keeps the whole line for administrators, who
 * also see it here and on the host's Test.
 */
async function hostDetailForAdmins<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const reason = error instanceof ApiError ? error.metadata?.reason : undefined;
    if (!(error instanceof ApiError) || typeof reason !== "string" || !carriesHostWords.has(error.code))
      throw error;
    if (holdsScope(requirePrincipal(request).scopes, "admin")) throw error;
    request.log.warn({ err: error }, "a database host refused a server's request");
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    throw new ApiError(
      error.status,
      error.code,
      error.message,
      { ...error.metadata, reason: typeof code === "string" && code ? code : "see the panel's log" },
      { cause: error },
    );
  }
}

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
    (request) =>
      hostDetailForAdmins(request, () =>
        serverDatabases.create(request.params.id, request.body, seesPasswords(request)),
      ),
  );

  api.delete(
    "/api/servers/:id/databases/:dbId",
    { config: { access: "server.databases.delete" }, schema: { params: ServerDatabaseParams } },
    async (request, reply) => {
      await hostDetailForAdmins(request, () =>
        serverDatabases.delete(request.params.id, request.params.dbId),
      );
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/servers/:id/databases/:dbId/rotate-password",
    {
      config: { access: "server.databases.rotate" },
      schema: { params: ServerDatabaseParams, response: { 200: ServerDatabaseView } },
    },
    (request) =>
      hostDetailForAdmins(request, () =>
        serverDatabases.rotate(request.params.id, request.params.dbId, seesPasswords(request)),
      ),
  );
}
