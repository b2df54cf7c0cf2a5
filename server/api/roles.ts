import {
  RoleBody,
  RoleList,
  RoleParams,
  RoleView,
  UserRolesAnswer,
  UserRolesBody,
} from "../contract/api/roles.ts";
import { UserIdParams } from "../contract/api/users.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Roles and who holds them (issue 39): administrators only. */
export function roleRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { roles } = services;
  const byId = { params: RoleParams };

  api.get("/api/roles", { config: { access: "admin" }, schema: { response: { 200: RoleList } } }, () =>
    roles.list(),
  );

  api.post(
    "/api/roles",
    { config: { access: "admin" }, schema: { body: RoleBody, response: { 200: RoleView } } },
    (request) => roles.create(request.body),
  );

  api.put(
    "/api/roles/:id",
    { config: { access: "admin" }, schema: { ...byId, body: RoleBody, response: { 200: RoleView } } },
    (request) => roles.update(request.params.id, request.body),
  );

  api.delete("/api/roles/:id", { config: { access: "admin" }, schema: byId }, async (request, reply) => {
    await roles.delete(request.params.id);
    return reply.status(204).send();
  });

  api.get(
    "/api/users/:id/roles",
    { config: { access: "admin" }, schema: { params: UserIdParams, response: { 200: UserRolesAnswer } } },
    async (request) => ({ roles: await roles.rolesOf(request.params.id) }),
  );

  api.put(
    "/api/users/:id/roles",
    {
      config: { access: "admin" },
      schema: { params: UserIdParams, body: UserRolesBody, response: { 200: UserRolesAnswer } },
    },
    async (request) => ({ roles: await roles.setUserRoles(request.params.id, request.body.roles) }),
  );
}
