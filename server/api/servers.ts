import { Type } from "typebox";
import {
  FlagsBody,
  ServerCreateBody,
  ServerDataBody,
  ServerIdParams,
  ServerList,
  ServerListQuery,
  ServerWithPerms,
} from "../contract/api/servers.ts";
import { type ServerAction, serverActions } from "../contract/node/server-wire.ts";
import { ApiError } from "../errors.ts";
import { type Principal, scopesOnServer } from "../panel/principal.ts";
import { holdsScope } from "../panel/scopes.ts";
import { CachedAnswers } from "./pipeline/cached-answer.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { dataValues } from "./server-data.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const byId = { params: ServerIdParams };

/** /api/servers (reference §2.5 scopes, §12 behaviour). */
export function serverRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { servers } = services;
  const lists = new CachedAnswers(services.db);
  // ?perms answers the server row's scopes (reference §12.6); a server-bound client's are its own.
  const permsOf = (principal: Principal, id: string) =>
    principal.onlyServer === undefined
      ? services.permissions.serverScopes(principal.user.id, id).then((scopes) => scopes ?? [])
      : scopesOnServer(services, principal, id);

  /**
   * The list as a server-bound client sees it: what it may do there is its own scopes (as far as
   * its owner still reaches), not its owner's row; without server.view it sees nothing.
   */
  const boundList = async (principal: Principal, serverId: string, query: ServerListQuery) => {
    const page = await servers.list(principal, query);
    const held = await scopesOnServer(services, principal, serverId);
    if (!holdsScope(held, "server.view")) return { servers: [], paging: { ...page.paging, total: 0 } };
    for (const server of page.servers) server.canGetStatus = holdsScope(held, "server.status");
    return page;
  };

  api.get(
    "/api/servers",
    {
      config: { access: "authenticated" },
      schema: { querystring: ServerListQuery, response: { 200: ServerList } },
    },
    (request, reply) => {
      const principal = requirePrincipal(request);
      if (principal.onlyServer !== undefined)
        return boundList(principal, principal.onlyServer, request.query);
      // Who sees what follows from the user and their global scopes; the rest is the query.
      const { page, limit, name, node } = request.query;
      const key = JSON.stringify([principal.user.id, principal.scopes, page, limit, name, node]);
      return lists.send(reply, key, () => servers.list(principal, request.query));
    },
  );

  api.put(
    "/api/servers/:id",
    { config: { access: "server.create" }, schema: { ...byId, body: ServerCreateBody } },
    async (request) => {
      await servers.create(
        request.params.id,
        request.body as Record<string, unknown>,
        requirePrincipal(request),
      );
      return { id: request.params.id };
    },
  );

  api.get(
    "/api/servers/:id",
    {
      config: { access: "server.view" },
      schema: {
        ...byId,
        querystring: Type.Object({ perms: Type.Optional(Type.String()) }),
        response: { 200: ServerWithPerms },
      },
    },
    async (request) => {
      const server = await servers.get(request.params.id);
      const perms = request.query.perms !== undefined;
      const principal = requirePrincipal(request);
      return {
        server,
        permissions: perms ? { scopes: await permsOf(principal, request.params.id) } : null,
      };
    },
  );

  api.delete(
    "/api/servers/:id",
    { config: { access: "server.delete" }, schema: byId },
    async (request, reply) => {
      await servers.delete(request.params.id);
      return reply.status(204).send();
    },
  );

  api.put(
    "/api/servers/:id/name/:name",
    {
      config: { access: "server.name.edit" },
      schema: {
        params: Type.Object({ id: ServerIdParams.properties.id, name: Type.String({ maxLength: 100 }) }),
      },
    },
    async (request, reply) => {
      await servers.rename(request.params.id, request.params.name);
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/servers/:id/definition",
    { config: { access: "server.definition.view" }, schema: byId },
    (request) => servers.definitionFor(requirePrincipal(request), request.params.id),
  );

  api.put(
    "/api/servers/:id/definition",
    {
      config: { access: "server.definition.edit" },
      schema: { ...byId, body: Type.Object({}, { additionalProperties: true }) },
    },
    async (request, reply) => {
      await servers.replaceDefinition(
        requirePrincipal(request),
        request.params.id,
        request.body as Record<string, unknown>,
      );
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/servers/:id/data",
    { config: { access: "server.data.view" }, schema: byId },
    async (request) => {
      // Administrators of the server see every variable; others the ones they may edit.
      const held = await scopesOnServer(services, requirePrincipal(request), request.params.id);
      const all = holdsScope(held, "server.data.edit.admin");
      return servers.dataFor(requirePrincipal(request), request.params.id, all);
    },
  );

  api.post(
    "/api/servers/:id/data",
    { config: { access: "server.data.edit" }, schema: { ...byId, body: ServerDataBody } },
    async (request, reply) => {
      await servers.setData(requirePrincipal(request), request.params.id, dataValues(request.body), true);
      return reply.status(204).send();
    },
  );

  api.put(
    "/api/servers/:id/data",
    { config: { access: "server.data.edit.admin" }, schema: { ...byId, body: ServerDataBody } },
    async (request, reply) => {
      await servers.setData(requirePrincipal(request), request.params.id, dataValues(request.body), false);
      await servers.refreshRecord(request.params.id);
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/servers/:id/flags",
    { config: { access: "server.flags.view" }, schema: byId },
    async (request) => (await servers.clientOf(request.params.id)).flags(request.params.id),
  );

  api.post(
    "/api/servers/:id/flags",
    { config: { access: "server.flags.edit" }, schema: { ...byId, body: FlagsBody } },
    async (request, reply) => {
      await (await servers.clientOf(request.params.id)).setFlags(request.params.id, request.body);
      return reply.status(204).send();
    },
  );

  for (const action of serverActions) {
    api.post(
      `/api/servers/:id/${action}`,
      {
        config: { access: `server.${action}` as `server.${ServerAction}` },
        schema: { ...byId, querystring: Type.Object({ wait: Type.Optional(Type.String()) }) },
      },
      async (request, reply) => {
        // Like the reference, `wait` counts when present at all; without it long work runs on (202).
        const wait = request.query.wait !== undefined;
        const node = await servers.clientOf(request.params.id);
        if (wait || action === "start" || action === "kill" || action === "reload") {
          await node.action(request.params.id, action, wait);
          return reply.status(204).send();
        }
        await node.action(request.params.id, action, false);
        return reply.status(202).send();
      },
    );
  }

  api.get(
    "/api/servers/:id/console",
    {
      config: { access: "server.console" },
      schema: { ...byId, querystring: Type.Object({ time: Type.Optional(Type.String({ maxLength: 20 })) }) },
    },
    async (request) => {
      const time = request.query.time ?? "0";
      if (!/^\d+$/.test(time))
        throw new ApiError(400, "ErrInvalidUnixTime", "time must be microseconds since the epoch");
      return (await servers.clientOf(request.params.id)).console(request.params.id, Number(time));
    },
  );

  // The console command is the raw body as text, whatever its content type says (reference §5.9:
  // the reference client sends a bare string), so this route parses every body as a string.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) =>
      done(null, body),
    );
    typed(scope).post(
      "/api/servers/:id/console",
      { config: { access: "server.console.send" }, schema: byId },
      async (request, reply) => {
        const line = String(request.body ?? "").replace(/\r?\n$/, "");
        if (/[\r\n\0]/.test(line))
          throw new ApiError(400, "ErrFieldInvalid", "a console command is one line", { field: "body" });
        await (await servers.clientOf(request.params.id)).sendConsole(request.params.id, line);
        return reply.status(204).send();
      },
    );
  });

  api.get("/api/servers/:id/stats", { config: { access: "server.stats" }, schema: byId }, async (request) =>
    (await servers.clientOf(request.params.id)).stats(request.params.id),
  );

  api.get("/api/servers/:id/status", { config: { access: "server.status" }, schema: byId }, async (request) =>
    (await servers.clientOf(request.params.id)).status(request.params.id),
  );
}
