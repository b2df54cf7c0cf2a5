import {
  BackupAdoption,
  BackupEntryList,
  BackupFolderQuery,
  BackupObjectAnswer,
  BackupObjectQuery,
  BackupPinBody,
  BackupPolicy,
  BackupReceiptQuery,
  BackupRestoreBody,
  BackupVerdict,
  BackupFileQuery as ByFile,
  NodeBackupList,
  NodeBackupView,
  PrunedList,
  BackupTargetBody as TargetBody,
} from "../../contract/node/backup-wire.ts";
import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import { bodyStreamOf } from "../../http/file-http.ts";
import type { Router } from "../http/router.ts";
import type { BackupOps } from "./backup-ops.ts";

/**
 * The daemon's backup routes under /daemon/server/{id}/backup, spoken by the
 * panel's RemoteBackups (the reference's paths, §9.4, plus the status list
 * the panel polls). They call the same BackupOps the local node uses; the
 * file name is checked there.
 */
export function daemonBackupRoutes(api: Router, ops: BackupOps): void {
  const base = "/daemon/server/:id/backup";

  api.put("/daemon/backup-target", { body: TargetBody }, async (request, reply) => {
    await ops.setTarget(request.body.target);
    return reply.status(204).send();
  });

  api.get(base, { params: Id, answer: NodeBackupList }, (request) => ops.list(request.params.id));

  api.get(
    "/daemon/backup-object",
    { query: BackupObjectQuery, answer: BackupObjectAnswer },
    async (request) => ({
      size: await ops.objectSize(request.query.key),
    }),
  );

  api.put(
    `${base}/adopt`,
    { params: Id, query: ByFile, body: BackupAdoption, answer: NodeBackupView },
    (request) => ops.adopt(request.params.id, request.query.fileName, request.body),
  );

  api.post(`${base}/create`, { params: Id, query: ByFile }, async (request, reply) => {
    await ops.create(request.params.id, request.query.fileName);
    return reply.status(204).send();
  });

  api.post(
    `${base}/restore`,
    { params: Id, query: ByFile, body: BackupRestoreBody },
    async (request, reply) => {
      await ops.restore(request.params.id, request.query.fileName, request.body.paths);
      return reply.status(204).send();
    },
  );

  api.delete(base, { params: Id, query: ByFile }, async (request, reply) => {
    await ops.delete(request.params.id, request.query.fileName);
    return reply.status(204).send();
  });

  api.post(`${base}/verify`, { params: Id, query: ByFile, answer: BackupVerdict }, (request) =>
    ops.verify(request.params.id, request.query.fileName),
  );

  // The body streams onto the node's disk as it arrives (another panel's backup file).
  api.route({
    methods: ["PUT"],
    url: `${base}/receive`,
    schemas: { params: Id, query: BackupReceiptQuery, answer: NodeBackupView },
    upload: true,
    handler: (request) => {
      const { fileName, createdAt, pinned, sha1 } = request.query;
      return ops.receive(request.params.id, fileName, bodyStreamOf(request.body), {
        createdAt: Number(createdAt),
        pinned: pinned === "true",
        ...(sha1 ? { sha1 } : {}),
      });
    },
  });

  api.get(`${base}/files`, { params: Id, query: BackupFolderQuery, answer: BackupEntryList }, (request) =>
    ops.files(request.params.id, request.query.fileName, request.query.path ?? ""),
  );

  api.put(`${base}/pin`, { params: Id, query: ByFile, body: BackupPinBody }, async (request, reply) => {
    await ops.pin(request.params.id, request.query.fileName, request.body.pinned);
    return reply.status(204).send();
  });

  api.get(`${base}-policy`, { params: Id, answer: BackupPolicy }, (request) => ops.policy(request.params.id));

  api.put(`${base}-policy`, { params: Id, body: BackupPolicy, answer: PrunedList }, (request) =>
    ops.setPolicy(request.params.id, request.body),
  );

  api.get(`${base}/download`, { params: Id, query: ByFile }, async (request, reply) => {
    const { size, body } = await ops.download(request.params.id, request.query.fileName);
    return reply.header("content-type", "application/gzip").header("content-length", String(size)).send(body);
  });
}
