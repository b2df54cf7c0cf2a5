import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { BackupOps } from "./backup-ops.ts";

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ByFile = Type.Object({ fileName: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * The daemon's backup routes under /daemon/server/{id}/backup, spoken by the
 * panel's RemoteBackups (the reference's paths, §9.4, plus the status list
 * the panel polls). They call the same BackupOps the local node uses; the
 * file name is checked there.
 */
export function daemonBackupRoutes(app: FastifyInstance, ops: BackupOps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = "/daemon/server/:id/backup";

  api.get(base, { schema: { params: Id } }, (request) => ops.list(request.params.id));

  api.post(`${base}/create`, { schema: { params: Id, querystring: ByFile } }, async (request, reply) => {
    await ops.create(request.params.id, request.query.fileName);
    return reply.status(204).send();
  });

  api.post(`${base}/restore`, { schema: { params: Id, querystring: ByFile } }, async (request, reply) => {
    await ops.restore(request.params.id, request.query.fileName);
    return reply.status(204).send();
  });

  api.delete(base, { schema: { params: Id, querystring: ByFile } }, async (request, reply) => {
    await ops.delete(request.params.id, request.query.fileName);
    return reply.status(204).send();
  });

  api.get(`${base}/download`, { schema: { params: Id, querystring: ByFile } }, async (request, reply) => {
    const { size, body } = await ops.download(request.params.id, request.query.fileName);
    return reply.header("content-type", "application/gzip").header("content-length", String(size)).send(body);
  });
}
