import {
  ModFileParams,
  ModInstallAnswer,
  ModInstallRequest,
  ModSearchQuery,
  ModSearchView,
  ModVersionList,
  ModVersionsQuery,
  ServerModsView,
} from "../contract/api/mods.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** A server's mods and plugins (issue 37) under /api/servers/{id}/mods. */
export function serverModRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { serverMods } = services;

  api.get(
    "/api/servers/:id/mods",
    {
      config: { access: "server.mods.view" },
      schema: { params: ServerIdParams, response: { 200: ServerModsView } },
    },
    (request) => serverMods.list(request.params.id),
  );

  api.get(
    "/api/servers/:id/mods/search",
    {
      config: { access: "server.mods.view" },
      schema: { params: ServerIdParams, querystring: ModSearchQuery, response: { 200: ModSearchView } },
    },
    (request) => serverMods.search(request.params.id, request.query.source, request.query.q),
  );

  api.get(
    "/api/servers/:id/mods/versions",
    {
      config: { access: "server.mods.view" },
      schema: { params: ServerIdParams, querystring: ModVersionsQuery, response: { 200: ModVersionList } },
    },
    (request) => serverMods.versions(request.params.id, request.query.source, request.query.projectId),
  );

  api.post(
    "/api/servers/:id/mods",
    {
      config: { access: "server.mods.edit" },
      schema: { params: ServerIdParams, body: ModInstallRequest, response: { 200: ModInstallAnswer } },
    },
    (request) => serverMods.install(request.params.id, request.body),
  );

  api.delete(
    "/api/servers/:id/mods/:file",
    { config: { access: "server.mods.edit" }, schema: { params: ModFileParams } },
    async (request, reply) => {
      await serverMods.remove(request.params.id, request.params.file);
      return reply.status(204).send();
    },
  );
}
