import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import {
  RepoCreateBody,
  RepoListQuery,
  RepoParams,
  RepoTemplateParams,
  RepoView,
  TemplateBody,
  TemplateImportBody,
  TemplateImportView,
} from "../contract/api/templates.ts";
import { ApiError } from "../errors.ts";
import { holdsScope } from "../panel/scopes.ts";
import { localRepoId } from "../panel/templates/template-repos.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const onlyLocal = (repo: number) => {
  if (repo !== localRepoId)
    throw new ApiError(400, "ErrRepoReadOnly", "only the local repository (0) can be edited");
};

/**
 * Whether an administrator calls: what an administrator writes or adds (a local template, a
 * repository) is what non-administrators may create servers from (server/panel/servers.ts).
 */
const byAdmin = (request: FastifyRequest) => holdsScope(requirePrincipal(request).scopes, "admin");

/** /api/templates: repositories and their templates (reference §12.15; add and delete repos work here). */
export function templateRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { templates } = services;

  api.get(
    "/api/templates",
    { config: { access: "templates.view" }, schema: { response: { 200: Type.Array(RepoView) } } },
    () => templates.repos(),
  );

  // Ours: the Templates page's import by URL, fetched by the panel (template-import.ts).
  api.post(
    "/api/templates/import",
    {
      config: { access: "templates.local.edit" },
      schema: { body: TemplateImportBody, response: { 200: TemplateImportView } },
    },
    async (request) => ({
      text: await templates.importText(request.body.url, { byAdmin: byAdmin(request) }),
    }),
  );

  api.get(
    "/api/templates/:repo",
    { config: { access: "templates.view" }, schema: { params: RepoParams, querystring: RepoListQuery } },
    (request) =>
      templates.list(request.params.repo, {
        retry: request.query.retry === true,
        acceptLanguage: request.headers["accept-language"],
      }),
  );

  api.get(
    "/api/templates/:repo/:name",
    { config: { access: "templates.view" }, schema: { params: RepoTemplateParams } },
    (request) => templates.get(request.params.repo, request.params.name, request.headers["accept-language"]),
  );

  api.put(
    "/api/templates/:repo/:name",
    {
      config: { access: "templates.local.edit" },
      schema: { params: RepoTemplateParams, body: TemplateBody },
    },
    async (request, reply) => {
      onlyLocal(request.params.repo);
      await templates.putLocal(request.params.name, request.body, byAdmin(request));
      return reply.status(204).send();
    },
  );

  api.delete(
    "/api/templates/:repo/:name",
    { config: { access: "templates.local.edit" }, schema: { params: RepoTemplateParams } },
    async (request, reply) => {
      onlyLocal(request.params.repo);
      await templates.deleteLocal(request.params.name);
      return reply.status(204).send();
    },
  );

  // Adding a repository: POST (the reference's route, broken there) and PUT /{repo} (its client's helper).
  const addRepo = {
    config: { access: "templates.repo.create" as const },
    schema: { body: RepoCreateBody, response: { 200: RepoView } },
  };
  api.post("/api/templates", addRepo, (request) =>
    templates.addRepo(request.body, { byAdmin: byAdmin(request) }),
  );
  api.put(
    "/api/templates/:repo",
    {
      ...addRepo,
      schema: { ...addRepo.schema, params: Type.Object({ repo: Type.String({ maxLength: 20 }) }) },
    },
    (request) => templates.addRepo(request.body, { byAdmin: byAdmin(request) }),
  );

  api.delete(
    "/api/templates/:repo",
    { config: { access: "templates.repo.delete" }, schema: { params: RepoParams } },
    async (request, reply) => {
      await templates.deleteRepo(request.params.repo);
      return reply.status(204).send();
    },
  );
}
