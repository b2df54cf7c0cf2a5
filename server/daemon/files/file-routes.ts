import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import {
  abortedWhenGone,
  acceptStreamedBodies,
  bodyStreamOf,
  markUnsatisfiable,
  moveDestination,
  sendFileRead,
} from "../../http/file-http.ts";
import { requestPath } from "../../http/request-path.ts";
import { ArchiveBody, ExtractQuery, FileActionBody, WriteQuery } from "../../wire/files.ts";
import type { FileOps } from "./file-ops.ts";

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const base = "/daemon/server/:id";

/**
 * The daemon's file routes under /daemon/server/{id}, spoken by the panel's
 * RemoteFiles: the panel's file routes with the same paths, statuses and
 * headers, a thin transport to the same FileOps the local node calls. An
 * upload arrives as a raw body (the panel unwraps multipart).
 */
export function daemonFileRoutes(app: FastifyInstance, ops: FileOps): void {
  app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const url of [`${base}/file`, `${base}/file/*`]) {
      api.route({
        method: ["GET", "HEAD"],
        url,
        schema: { params: Id },
        handler: async (request, reply) => {
          const read = await ops
            .read(request.params.id, requestPath(request), request.headers.range)
            .catch((error) => markUnsatisfiable(reply, error));
          return sendFileRead(reply, read, request.method);
        },
      });
      api.delete(url, { schema: { params: Id } }, async (request, reply) => {
        await ops.remove(request.params.id, requestPath(request));
        return reply.status(204).send();
      });
      api.post(url, { schema: { params: Id, body: FileActionBody } }, async (request, reply) => {
        await ops.move(request.params.id, requestPath(request), moveDestination(request.body));
        return reply.status(204).send();
      });
    }
    api.post(`${base}/archive/*`, { schema: { params: Id, body: ArchiveBody } }, async (request, reply) => {
      await ops.archive(request.params.id, requestPath(request), request.body);
      return reply.status(204).send();
    });
    api.post(
      `${base}/extract/*`,
      { schema: { params: Id, querystring: ExtractQuery } },
      async (request, reply) => {
        await ops.extract(request.params.id, requestPath(request), request.query.destination);
        return reply.status(204).send();
      },
    );
  });

  // Uploads: every body is streamed to disk as it is, whatever its type.
  app.register(async (scope) => {
    acceptStreamedBodies(scope);
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const url of [`${base}/file`, `${base}/file/*`]) {
      api.put(url, { schema: { params: Id, querystring: WriteQuery } }, async (request, reply) => {
        const path = requestPath(request);
        if (request.query.folder !== undefined) {
          await ops.makeFolder(request.params.id, path, abortedWhenGone(reply));
          return reply.status(200).send();
        }
        await ops.write(request.params.id, path, bodyStreamOf(request.body));
        return reply.status(204).send();
      });
    }
  });
}
