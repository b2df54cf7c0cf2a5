import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { UserView } from "../contract/api/self.ts";
import {
  ScopesBody,
  UserCreateBody,
  UserIdParams,
  UserList,
  UserListQuery,
  UserUpdateBody,
} from "../contract/api/users.ts";
import type { Editor } from "../panel/user-admin.ts";
import { CachedAnswers } from "./pipeline/cached-answer.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const editorOf = (request: FastifyRequest): Editor => {
  const { user, scopes, sessionHash } = requirePrincipal(request);
  return { userId: user.id, scopes, sessionHash };
};

/** /api/users (reference §12.18); scopes per reference §2.5, rules in panel/user-admin. */
export function userRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { userAdmin } = services;
  const byId = { params: UserIdParams };
  const lists = new CachedAnswers(services.db);

  api.get(
    "/api/users",
    {
      config: { access: "users.info.search" },
      schema: { querystring: UserListQuery, response: { 200: UserList } },
    },
    (request, reply) => {
      // The same for every caller holding the scope: the query decides it.
      const { page, limit, username, email } = request.query;
      const key = JSON.stringify([page, limit, username, email]);
      return lists.send(reply, key, () => userAdmin.search(request.query));
    },
  );

  api.post(
    "/api/users",
    { config: { access: "users.info.edit" }, schema: { body: UserCreateBody, response: { 200: UserView } } },
    (request) => userAdmin.create(request.body),
  );

  api.get(
    "/api/users/:id",
    { config: { access: "users.info.view" }, schema: { ...byId, response: { 200: UserView } } },
    (request) => userAdmin.get(request.params.id),
  );

  api.post(
    "/api/users/:id",
    { config: { access: "users.info.edit" }, schema: { ...byId, body: UserUpdateBody } },
    async (request, reply) => {
      await userAdmin.update(request.params.id, request.body, editorOf(request));
      return reply.status(204).send();
    },
  );

  api.delete(
    "/api/users/:id",
    { config: { access: "users.info.edit" }, schema: byId },
    async (request, reply) => {
      await userAdmin.delete(request.params.id, editorOf(request));
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/users/:id/perms",
    {
      config: { access: "users.perms.view" },
      schema: { ...byId, response: { 200: Type.Object({ scopes: Type.Array(Type.String()) }) } },
    },
    async (request) => ({ scopes: await userAdmin.scopesOf(request.params.id) }),
  );

  api.put(
    "/api/users/:id/perms",
    { config: { access: "users.perms.edit" }, schema: { ...byId, body: ScopesBody } },
    async (request, reply) => {
      await userAdmin.setScopes(request.params.id, request.body.scopes, editorOf(request));
      return reply.status(204).send();
    },
  );
}
