import { PassThrough, type Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { ArchiveBody, ExtractQuery, FileActionBody, WriteQuery } from "../contract/api/files.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { ApiError, errors } from "../errors.ts";
import {
  abortedWhenGone,
  acceptStreamedBodies,
  bodyStreamOf,
  drainRequest,
  limitedTo,
  markUnsatisfiable,
  moveDestination,
  sendFileRead,
  tooLarge,
} from "../http/file-http.ts";
import { refuseNulPaths, requestPath } from "../http/request-path.ts";
import { firstFile, isMultipart } from "./pipeline/multipart-file.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const view = { access: "server.files.view" } as const;
const edit = { access: "server.files.edit" } as const;
const params = ServerIdParams;
const fileUrls = ["/api/servers/:id/file", "/api/servers/:id/file/*"];

/** The web client once sent `multipart/formdata` (reference §12.9): read it as the real thing. */
const misspeltMultipart = /^multipart\/formdata\b/i;

/** The size is bounded by limitedTo for both kinds of upload, with one error. */
const formLimits = { files: 1, fields: 16, fieldSize: 64 * 1024 };

/** The bytes of an upload: a multipart form's `file` field, or else the raw body. */
async function uploadedBytes(request: FastifyRequest, maxUploadBytes: number): Promise<Readable> {
  if (!isMultipart(request.headers["content-type"])) {
    const declared = Number(request.headers["content-length"]);
    if (declared > maxUploadBytes) throw tooLarge(maxUploadBytes);
    return bodyStreamOf(request.body);
  }
  const part = await firstFile(bodyStreamOf(request.body), request.headers, formLimits).catch((error) => {
    throw badMultipart(error);
  });
  if (part?.field !== "file") throw errors.fieldRequired("file");
  // The parser fails the part's stream when the form is cut short or malformed: that is the sender's fault.
  // When the whole body was already there, it may have failed it before this line: an error listener
  // added now would never hear of it, and the upload would wait forever (seen on PostgreSQL timing).
  if (part.stream.errored || part.stream.destroyed) throw badMultipart(part.stream.errored);
  const bytes = new PassThrough();
  part.stream.once("error", (error) => bytes.destroy(badMultipart(error)));
  part.stream.pipe(bytes);
  return bytes;
}

/** A multipart body the parser refused (no boundary, cut short, malformed): 400, never 500. */
function badMultipart(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(400, "ErrBadMultipart", "the multipart form is malformed or incomplete", undefined, {
    cause: error,
  });
}

/**
 * The file manager under /api/servers/{id}/file, /archive and /extract
 * (reference §12.8–§12.9, scopes §2.5). Paths are taken from the raw URL and
 * decoded once (requestPath); the node's FileOps holds every rule, so a
 * server on a remote node behaves as one on the local node.
 */
export function fileRoutes(app: Api, { services }: RouteContext): void {
  const filesOf = async (id: string) => (await services.servers.nodeOf(id)).files;

  app.register(async (scope) => {
    scope.addHook("onRequest", async (request) => refuseNulPaths(request));
    const api = typed(scope);
    for (const url of fileUrls) {
      api.route({
        method: ["GET", "HEAD"],
        url,
        config: view,
        schema: { params },
        handler: async (request, reply) => {
          const files = await filesOf(request.params.id);
          const read = await files
            .read(request.params.id, requestPath(request), request.headers.range)
            .catch((error) => markUnsatisfiable(reply, error));
          return sendFileRead(reply, read, request.method);
        },
      });

      api.delete(url, { config: edit, schema: { params } }, async (request, reply) => {
        await (await filesOf(request.params.id)).remove(request.params.id, requestPath(request));
        return reply.status(204).send();
      });

      // The reference answers 501 here; the file manager renames and moves with it.
      api.post(url, { config: edit, schema: { params, body: FileActionBody } }, async (request, reply) => {
        const to = moveDestination(request.body);
        await (await filesOf(request.params.id)).move(request.params.id, requestPath(request), to);
        return reply.status(204).send();
      });
    }

    api.post(
      "/api/servers/:id/archive/*",
      { config: edit, schema: { params, body: ArchiveBody } },
      async (request, reply) => {
        if (request.body.length === 0) throw errors.fieldRequired("files");
        await (await filesOf(request.params.id)).archive(
          request.params.id,
          requestPath(request),
          request.body,
        );
        return reply.status(204).send();
      },
    );

    api.post(
      "/api/servers/:id/extract/*",
      { config: edit, schema: { params, querystring: ExtractQuery } },
      async (request, reply) => {
        await (await filesOf(request.params.id)).extract(
          request.params.id,
          requestPath(request),
          request.query.destination,
        );
        return reply.status(204).send();
      },
    );
  });

  // Uploads, in a scope of their own: any body is streamed as it is (a JSON
  // file is not parsed), multipart is read here only, and the size bound is
  // the configured upload limit instead of the panel's body limit. Uploads are
  // streamed to disk, so that limit bounds disk use, not memory.
  const { maxUploadBytes } = services.config;
  app.register(async (scope) => {
    acceptStreamedBodies(scope);
    scope.addHook("onRequest", async (request) => refuseNulPaths(request));
    scope.addHook("onRequest", async (request) => {
      const type = request.headers["content-type"];
      if (type && misspeltMultipart.test(type)) {
        request.headers["content-type"] = type.replace(misspeltMultipart, "multipart/form-data");
      }
    });
    const api = typed(scope);
    for (const url of fileUrls) {
      api.put(
        url,
        { config: edit, bodyLimit: maxUploadBytes, schema: { params, querystring: WriteQuery } },
        async (request, reply) => {
          const files = await filesOf(request.params.id);
          if (request.query.folder !== undefined) {
            // The reference answers a made folder with 200 and an empty body.
            await files.makeFolder(request.params.id, requestPath(request), abortedWhenGone(reply));
            return reply.status(200).send();
          }
          try {
            const bytes = await uploadedBytes(request, maxUploadBytes);
            await files.write(request.params.id, requestPath(request), limitedTo(bytes, maxUploadBytes));
          } catch (error) {
            await drainRequest(request.raw);
            throw error;
          }
          return reply.status(204).send();
        },
      );
    }
  });
}
