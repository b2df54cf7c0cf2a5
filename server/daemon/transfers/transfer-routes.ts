import type { IncomingHttpHeaders } from "node:http";
import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import {
  NodeSpace,
  TransferOffer,
  TransferProgressAnswer,
  TransferReceipt,
  TransferSourceAddress,
  transferUpgrade,
} from "../../contract/node/transfer-wire.ts";
import { ApiError } from "../../errors.ts";
import type { Router } from "../http/router.ts";
import type { TransferOps } from "./transfer-ops.ts";

const exportPath = /^\/daemon\/transfer\/[^/]+\/export(\/digest)?\/?$/;

/** The two paths another node calls with a grant instead of the panel's token. */
export const isTransferExportPath = (path: string) => exportPath.test(path);

/** The grant another node presents, from its Authorization header. */
export function grantOf(headers: IncomingHttpHeaders): string {
  const match = /^Bearer (\S+)$/.exec(headers.authorization ?? "");
  if (!match)
    throw new ApiError(403, "ErrTransferGrantInvalid", "the transfer grant is invalid, expired or used");
  return match[1];
}

/**
 * The daemon's transfer routes under /daemon/transfer/{id}: the panel's
 * (offer, release, pull, activate, progress; signed like every panel call) and the
 * target node's (export, an upgrade to the archive's connection, and its
 * digest; the source's grant instead).
 */
export function daemonTransferRoutes(api: Router, ops: TransferOps): void {
  const base = "/daemon/transfer/:id";
  api.get("/daemon/space", { answer: NodeSpace }, () => ops.space());
  api.post(`${base}/offer`, { params: Id, answer: TransferOffer }, (request) => ops.offer(request.params.id));
  api.post(`${base}/release`, { params: Id }, async (request, reply) => {
    await ops.release(request.params.id);
    return reply.status(204).send();
  });
  api.post(`${base}/pull`, { params: Id, body: TransferSourceAddress, answer: TransferReceipt }, (request) =>
    ops.pull(request.params.id, request.body),
  );
  api.post(`${base}/activate`, { params: Id }, async (request, reply) => {
    await ops.activate(request.params.id);
    return reply.status(204).send();
  });
  api.get(
    `${base}/progress`,
    { params: Id, answer: TransferProgressAnswer },
    async (request) => (await ops.progress(request.params.id)) ?? {},
  );
  api.takeOver(`${base}/export`, { params: Id }, transferUpgrade, (request) =>
    ops.exportTo(request.params.id, grantOf(request.headers)),
  );
  api.get(`${base}/export/digest`, { params: Id, answer: TransferReceipt }, (request) =>
    ops.digest(request.params.id, grantOf(request.headers)),
  );
}
