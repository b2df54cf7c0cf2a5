import {
  DatabaseHostBody,
  DatabaseHostDeleteQuery,
  DatabaseHostList,
  DatabaseHostParams,
  DatabaseHostTestAnswer,
  DatabaseHostView,
} from "../contract/api/databases.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Database hosts (issue 36): administrators only, the password write-only. */
export function databaseHostRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { databaseHosts } = services;
  const byId = { params: DatabaseHostParams };

  api.get(
    "/api/database-hosts",
    { config: { access: "admin" }, schema: { response: { 200: DatabaseHostList } } },
    () => databaseHosts.list(),
  );

  api.post(
    "/api/database-hosts",
    { config: { access: "admin" }, schema: { body: DatabaseHostBody, response: { 200: DatabaseHostView } } },
    (request) => databaseHosts.create(request.body),
  );

  api.put(
    "/api/database-hosts/:id",
    {
      config: { access: "admin" },
      schema: { ...byId, body: DatabaseHostBody, response: { 200: DatabaseHostView } },
    },
    (request) => databaseHosts.update(request.params.id, request.body),
  );

  api.delete(
    "/api/database-hosts/:id",
    { config: { access: "admin" }, schema: { ...byId, querystring: DatabaseHostDeleteQuery } },
    async (request, reply) => {
      await databaseHosts.delete(request.params.id, { forget: request.query.forget === true });
      return reply.status(204).send();
    },
  );

  api.post(
    "/api/database-hosts/:id/test",
    { config: { access: "admin" }, schema: { ...byId, response: { 200: DatabaseHostTestAnswer } } },
    (request) => databaseHosts.test(request.params.id),
  );
}
