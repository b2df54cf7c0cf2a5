import { ServerIdParams } from "../contract/api/servers.ts";
import { TransferBody, TransferTargets } from "../contract/api/transfers.ts";
import { transferUpgrade } from "../contract/node/transfer-wire.ts";
import { ApiError } from "../errors.ts";
import { localNodeId } from "../panel/nodes.ts";
import { takeOverConnection, upgradesTo } from "./pipeline/websocket.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const grantRefused = () =>
  new ApiError(403, "ErrTransferGrantInvalid", "the transfer grant is invalid, expired or used");

/**
 * Moving a server to another node (administrators), and the panel's local
 * node's export, which another node fetches with that node's grant: the
 * local node has no HTTP API of its own, so the panel serves it at the same
 * path as a daemon would (the grant is its only access rule).
 */
export function transferRoutes(app: Api, { services }: RouteContext): void {
  const api = typed(app);
  const { transfers } = services;

  api.get(
    "/api/servers/:id/transfer",
    { config: { access: "admin" }, schema: { params: ServerIdParams, response: { 200: TransferTargets } } },
    async (request) => ({ nodes: await transfers.targets(request.params.id) }),
  );

  api.post(
    "/api/servers/:id/transfer",
    { config: { access: "admin" }, schema: { params: ServerIdParams, body: TransferBody } },
    async (request, reply) => {
      await transfers.transfer(request.params.id, request.body.node);
      return reply.status(204).send();
    },
  );

  const exportsOfLocalNode = async () => {
    const exports = (await services.nodes.client(localNodeId).catch(() => undefined))?.exports;
    if (!exports) throw new ApiError(404, "ErrNotFound", "no such endpoint");
    return exports;
  };
  const grantOf = (header: string | undefined) => {
    const match = /^Bearer (\S+)$/.exec(header ?? "");
    if (!match) throw grantRefused();
    return match[1];
  };

  api.get(
    "/daemon/transfer/:id/export",
    { config: { access: "public" }, schema: { params: ServerIdParams } },
    async (request, reply) => {
      const grant = grantOf(request.headers.authorization);
      if (!upgradesTo(request, transferUpgrade)) throw new ApiError(404, "ErrNotFound", "no such endpoint");
      const send = (await exportsOfLocalNode()).exportTo(request.params.id, grant);
      await send(takeOverConnection(request, reply)).catch((error) =>
        request.log.warn({ err: error }, "a move's export ended early"),
      );
    },
  );

  api.get(
    "/daemon/transfer/:id/export/digest",
    { config: { access: "public" }, schema: { params: ServerIdParams } },
    async (request) =>
      (await exportsOfLocalNode()).digest(request.params.id, grantOf(request.headers.authorization)),
  );
}
