import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import {
  NodeCreateBody,
  NodeDeployment,
  NodeFeaturesAnswer,
  NodeIdParams,
  NodeUpdateBody,
  NodeView,
} from "../contract/api/nodes.ts";
import { holdsScope } from "../panel/scopes.ts";
import { CachedAnswers } from "./pipeline/cached-answer.ts";
import { requirePrincipal } from "./pipeline/guard.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/** Where a node's backups go (and the keys to them) is an administrator's alone. */
const byAdmin = (request: FastifyRequest) => holdsScope(requirePrincipal(request).scopes, "admin");

/** /api/nodes (reference §9.3); scopes per reference §2.5. */
export function nodeRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { nodes } = services;
  const byId = { params: NodeIdParams };
  // The same for every caller holding the scope; only whether each node answers changes without a write.
  const lists = new CachedAnswers(services.db, { max: 16, alsoOn: () => nodes.reachability() });

  api.get(
    "/api/nodes",
    { config: { access: "nodes.view" }, schema: { response: { 200: Type.Array(NodeView) } } },
    (_request, reply) => lists.send(reply, "", () => nodes.list()),
  );

  api.get(
    "/api/nodes/:id",
    { config: { access: "nodes.view" }, schema: { ...byId, response: { 200: NodeView } } },
    (request) => nodes.get(request.params.id, byAdmin(request)),
  );

  // Answers the new node with its id (the reference answers {}; clients that re-list still work).
  api.post(
    "/api/nodes",
    { config: { access: "nodes.create" }, schema: { body: NodeCreateBody, response: { 200: NodeView } } },
    (request) => nodes.create(request.body),
  );

  api.put(
    "/api/nodes/:id",
    { config: { access: "nodes.edit" }, schema: { ...byId, body: NodeUpdateBody } },
    async (request, reply) => {
      await nodes.update(request.params.id, request.body, byAdmin(request));
      return reply.status(204).send();
    },
  );

  api.delete(
    "/api/nodes/:id",
    { config: { access: "nodes.delete" }, schema: byId },
    async (request, reply) => {
      await nodes.delete(request.params.id);
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/nodes/:id/deployment",
    { config: { access: "nodes.deploy" }, schema: { ...byId, response: { 200: NodeDeployment } } },
    (request) => nodes.deployment(request.params.id),
  );

  api.get(
    "/api/nodes/:id/features",
    { config: { access: "nodes.view" }, schema: { ...byId, response: { 200: NodeFeaturesAnswer } } },
    async (request) => (await nodes.client(request.params.id)).features(),
  );
}
