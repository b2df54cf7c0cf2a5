import type { IncomingHttpHeaders } from "node:http";
import { Type } from "typebox";
import { ApiError } from "../../errors.ts";
import type { Router } from "../http/router.ts";
import type { TransferOps } from "./transfer-ops.ts";

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
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
 * target node's (export and its digest; the source's grant instead).
 */
export function daemonTransferRoutes(api: Router, ops: TransferOps): void {
  const base = "/daemon/transfer/:id";
  api.get("/daemon/space", {}, () => ops.space());
  api.post(`${base}/offer`, { params: Id }, (request) => ops.offer(request.params.id));
  api.post(`${base}/release`, { params: Id }, async (request, reply) => {
    await ops.release(request.params.id);
    return reply.status(204).send();
  });
  api.post(
    `${base}/pull`,
    {
      params: Id,
      body: Type.Object({
        url: Type.String({ minLength: 1, maxLength: 2000, pattern: "^https?://" }),
        grant: Type.String({ minLength: 1, maxLength: 1000 }),
      }),
    },
    (request) => ops.pull(request.params.id, request.body),
  );
  api.post(`${base}/activate`, { params: Id }, async (request, reply) => {
    await ops.activate(request.params.id);
    return reply.status(204).send();
  });
  api.get(
    `${base}/progress`,
    { params: Id },
    async (request) => (await ops.progress(request.params.id)) ?? {},
  );
  api.get(`${base}/export`, { params: Id }, (request, reply) => {
    const body = ops.exportStream(request.params.id, grantOf(request.headers));
    return reply.header("content-type", "application/x-tar").send(body);
  });
  api.get(`${base}/export/digest`, { params: Id }, (request) =>
    ops.digest(request.params.id, grantOf(request.headers)),
  );
}
