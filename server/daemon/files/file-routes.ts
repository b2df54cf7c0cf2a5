import {
  ArchiveBody,
  ExtractQuery,
  FileActionBody,
  FileListing,
  WriteQuery,
} from "../../contract/node/file-wire.ts";
import { NodeServerParams as Id } from "../../contract/node/server-wire.ts";
import {
  abortedWhenGone,
  bodyStreamOf,
  markUnsatisfiable,
  moveDestination,
  sendFileRead,
} from "../../http/file-http.ts";
import { pathAfterRoute } from "../../http/request-path.ts";
import type { DaemonRequest, Router } from "../http/router.ts";
import type { FileOps } from "./file-ops.ts";

const base = "/daemon/server/:id";

/** The file path after the route's prefix, decoded once (server/http/request-path.ts). */
const pathOf = (request: DaemonRequest) => pathAfterRoute(request.route, request.url);

/**
 * The daemon's file routes under /daemon/server/{id}, spoken by the panel's
 * RemoteFiles: the panel's file routes with the same paths, statuses and
 * headers, a thin transport to the same FileOps the local node calls. An
 * upload arrives as a raw body (the panel unwraps multipart), streamed to
 * disk as it is, whatever its type.
 */
export function daemonFileRoutes(api: Router, ops: FileOps): void {
  for (const url of [`${base}/file`, `${base}/file/*`]) {
    api.route({
      methods: ["GET", "HEAD"],
      url,
      // A folder's listing is written with FileListing's serializer; a file's bytes go as they are.
      schemas: { params: Id, answer: FileListing },
      handler: async (request, reply) => {
        const read = await ops
          .read(request.params.id, pathOf(request), request.headers.range)
          .catch((error) => markUnsatisfiable(reply, error));
        return sendFileRead(reply, read, request.method);
      },
    });
    api.delete(url, { params: Id }, async (request, reply) => {
      await ops.remove(request.params.id, pathOf(request));
      return reply.status(204).send();
    });
    api.post(url, { params: Id, body: FileActionBody }, async (request, reply) => {
      await ops.move(request.params.id, pathOf(request), moveDestination(request.body));
      return reply.status(204).send();
    });
    api.route({
      methods: ["PUT"],
      url,
      schemas: { params: Id, query: WriteQuery },
      upload: true,
      handler: async (request, reply) => {
        const path = pathOf(request);
        if (request.query.folder !== undefined) {
          await ops.makeFolder(request.params.id, path, abortedWhenGone(reply));
          return reply.status(200).send();
        }
        await ops.write(request.params.id, path, bodyStreamOf(request.body));
        return reply.status(204).send();
      },
    });
  }
  api.post(`${base}/archive/*`, { params: Id, body: ArchiveBody }, async (request, reply) => {
    await ops.archive(request.params.id, pathOf(request), request.body);
    return reply.status(204).send();
  });
  api.post(`${base}/extract/*`, { params: Id, query: ExtractQuery }, async (request, reply) => {
    await ops.extract(request.params.id, pathOf(request), request.query.destination);
    return reply.status(204).send();
  });
}
