import {
  FreeAllocationList,
  FreeAllocationQuery,
  NodeAllocationBody,
  NodeAllocationList,
  NodeAllocationParams,
  ServerAllocation,
  ServerAllocationParams,
  ServerAllocations,
} from "../contract/api/allocations.ts";
import { NodeIdParams } from "../contract/api/nodes.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

/**
 * Port allocations (issue 36): a node's pool under /api/nodes/{id}/allocations (administrators;
 * the free ones also for those who create servers, to choose one), and a server's own under
 * /api/servers/{id}/allocations.
 */
export function allocationRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { nodeAllocations, serverAllocations } = services;

  api.get(
    "/api/nodes/:id/allocations",
    { config: { access: "admin" }, schema: { params: NodeIdParams, response: { 200: NodeAllocationList } } },
    (request) => nodeAllocations.list(request.params.id),
  );

  api.post(
    "/api/nodes/:id/allocations",
    {
      config: { access: "admin" },
      schema: { params: NodeIdParams, body: NodeAllocationBody, response: { 200: NodeAllocationList } },
    },
    (request) => nodeAllocations.add(request.params.id, request.body),
  );

  api.delete(
    "/api/nodes/:id/allocations/:allocationId",
    { config: { access: "admin" }, schema: { params: NodeAllocationParams } },
    async (request, reply) => {
      await nodeAllocations.delete(request.params.id, request.params.allocationId);
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/nodes/:id/allocations/free",
    {
      config: { access: "server.create" },
      schema: {
        params: NodeIdParams,
        querystring: FreeAllocationQuery,
        response: { 200: FreeAllocationList },
      },
    },
    (request) => nodeAllocations.free(request.params.id, request.query.limit),
  );

  api.get(
    "/api/servers/:id/allocations",
    {
      config: { access: "server.allocations.view" },
      schema: { params: ServerIdParams, response: { 200: ServerAllocations } },
    },
    (request) => serverAllocations.list(request.params.id),
  );

  api.post(
    "/api/servers/:id/allocations",
    {
      config: { access: "server.allocations.edit" },
      schema: { params: ServerIdParams, response: { 200: ServerAllocation } },
    },
    (request) => serverAllocations.add(request.params.id),
  );

  api.delete(
    "/api/servers/:id/allocations/:allocationId",
    { config: { access: "server.allocations.edit" }, schema: { params: ServerAllocationParams } },
    async (request, reply) => {
      await serverAllocations.remove(request.params.id, request.params.allocationId);
      return reply.status(204).send();
    },
  );

  api.put(
    "/api/servers/:id/allocations/:allocationId/primary",
    {
      config: { access: "server.allocations.edit" },
      schema: { params: ServerAllocationParams, response: { 200: ServerAllocations } },
    },
    (request) => serverAllocations.setPrimary(request.params.id, request.params.allocationId),
  );
}
