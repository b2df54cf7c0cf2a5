import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, Transform } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ByteRange, FileBytes, FileRead } from "../contract/node/file-wire.ts";
import { ApiError, errors } from "../errors.ts";

/**
 * How files go over HTTP, written once for the panel's routes and the
 * daemon's (which the panel's RemoteFiles reads back with fileBytesOf), so
 * a file from a remote node reaches the browser with the same status and
 * headers as one from the local node.
 */

/** `attachment; filename="…"`, plus RFC 6266's `filename*` when the name is not plain ASCII. */
export function contentDisposition(name: string): string {
  const plain = /^[\x20-\x7e]*$/.test(name) && !/["\\]/.test(name);
  if (plain) return `attachment; filename="${name}"`;
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The name a Content-Disposition header carries (filename* preferred), or undefined. */
export function nameOfDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // fall back to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1];
}

/** What these helpers use of a reply: Fastify's, or the daemon's own (server/daemon/http/reply.ts). */
export interface HttpReply {
  readonly raw: ServerResponse;
  header(name: string, value: string): unknown;
  status(code: number): unknown;
  send(payload?: unknown): unknown;
}

/**
 * Answers a read: a folder as its JSON listing; a file as its bytes with
 * Content-Disposition (which the web client uses to tell a file from a
 * folder), Content-Length, Accept-Ranges and, for a range, 206 with
 * Content-Range. A HEAD request gets the headers and the file is not read.
 */
export function sendFileRead<R extends HttpReply>(reply: R, read: FileRead, method: string): R {
  if (read.kind === "folder") {
    reply.send(read.entries);
    return reply;
  }
  const length = read.range ? read.range.end - read.range.start + 1 : read.size;
  reply.header("Content-Type", "application/octet-stream");
  reply.header("Content-Disposition", contentDisposition(read.name));
  reply.header("Content-Length", String(length));
  reply.header("Accept-Ranges", "bytes");
  if (read.range) {
    reply.status(206);
    reply.header("Content-Range", `bytes ${read.range.start}-${read.range.end}/${read.size}`);
  }
  if (method === "HEAD") {
    read.body.destroy();
    reply.send();
  } else {
    reply.send(read.body);
  }
  return reply;
}

/** A 416 carries `Content-Range: bytes *\/size` (RFC 9110 §15.5.17) beside its error envelope. */
export function markUnsatisfiable(reply: HttpReply, error: unknown): never {
  if (error instanceof ApiError && error.status === 416 && error.metadata?.size !== undefined) {
    reply.header("Content-Range", `bytes */${error.metadata.size}`);
  }
  throw error;
}

/** A file answer from a daemon, read back into the shape NodeFiles.read gives. */
export function fileBytesOf(headers: Headers, body: Readable): FileBytes {
  const name = nameOfDisposition(headers.get("content-disposition")) ?? "file";
  const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers.get("content-range") ?? "");
  if (contentRange) {
    const range: ByteRange = { start: Number(contentRange[1]), end: Number(contentRange[2]) };
    return { kind: "file", name, size: Number(contentRange[3]), range, body };
  }
  return { kind: "file", name, size: Number(headers.get("content-length") ?? 0), body };
}

/**
 * A request body handed to the handler unread. The stream sits in a
 * private field: hooks that walk a body's fields (the NUL guard) see an
 * object with none.
 */
export class StreamedBody {
  readonly #stream: Readable;
  constructor(stream: Readable) {
    this.#stream = stream;
  }
  get stream(): Readable {
    return this.#stream;
  }
}

/**
 * Makes every body in this (encapsulated) scope a StreamedBody, whatever
 * its Content-Type (a JSON or text file is uploaded as it is, not parsed).
 * Fastify's bodyLimit does not apply to it: the handler streams the body
 * to disk and bounds it itself.
 */
export function acceptStreamedBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", (_request, payload, done) => {
    done(null, new StreamedBody(payload as Readable));
  });
}

/** The body stream of a request in a scope made by acceptStreamedBodies; empty when it had none. */
export function bodyStreamOf(body: unknown): Readable {
  return body instanceof StreamedBody ? body.stream : Readable.from([]);
}

/**
 * The destination of `POST .../file/{path}` `{"action":"move","to":…}`,
 * the only action there is (the reference answers this call with 501).
 */
export function moveDestination(body: { action: string; to?: string }): string {
  if (body.action !== "move") {
    throw new ApiError(400, "ErrFieldInvalid", "${field} is not valid", { field: "action" });
  }
  if (body.to === undefined || body.to === "") {
    throw errors.fieldRequired("to");
  }
  return body.to;
}

/**
 * Aborted when the client goes away before its answer was sent, so that
 * work done for it (a deep mkdir -p, a call to a remote node) stops.
 */
export function abortedWhenGone(reply: HttpReply): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!reply.raw.writableFinished) {
      controller.abort(new ApiError(400, "ErrRequestAborted", "the client went away"));
    }
  };
  // A client may be gone before the handler gets here (its "close" already past, seen with
  // PostgreSQL's slower session check): the work is given up before it begins.
  if (reply.raw.destroyed) gone();
  else reply.raw.once("close", gone);
  return controller.signal;
}

/**
 * The stream, failing with 413 ErrBodyTooLarge once more than `max` bytes
 * have passed. The source is then read to its end and dropped, not
 * destroyed: destroying a request closes its connection with the rest of
 * the body unread, and the client's system then drops the 413 it was sent.
 */
export function limitedTo(source: Readable, max: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen <= max) return done(null, chunk);
      source.unpipe(counter);
      source.resume();
      done(tooLarge(max));
    },
  });
  // A failed source fails the result too; it is told whoever reads it, and
  // until then (the node is still preparing the write) it must not crash the process.
  source.once("error", (error) => counter.destroy(error));
  counter.on("error", () => {});
  source.pipe(counter);
  return counter;
}

/**
 * Reads what is left of a refused upload's body, for at most `maxMs`, before
 * the error is answered. A connection closed with request bytes still
 * unread is reset by the system, and the client then loses the answer
 * already sent (a browser shows a network error, not the 413).
 */
export async function drainRequest(request: IncomingMessage, maxMs = 15_000): Promise<void> {
  // complete: every byte has reached the parser, none is left unread on the connection.
  if (request.complete || request.readableEnded || request.destroyed) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, maxMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    request.once("end", done);
    request.once("close", done);
    // Whatever still reads it (a form parser that gave up) is cut off; the bytes are dropped.
    request.unpipe();
    request.resume();
  });
}

export const tooLarge = (max: number) =>
  new ApiError(413, "ErrBodyTooLarge", "the upload is larger than ${max} bytes", { max });

/** Errors a body stream fails with when its sender went away before the end. */
const abortCodes = new Set(["ECONNRESET", "ERR_STREAM_PREMATURE_CLOSE", "ECONNABORTED", "UND_ERR_SOCKET"]);

/** An upload's failure as the API tells it: a sender gone away, a full disk, or as it was. */
export function uploadFailure(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const e = error as NodeJS.ErrnoException;
  if (abortCodes.has(e.code ?? "") || e.message === "aborted" || e.name === "AbortError") {
    return new ApiError(400, "ErrUploadIncomplete", "the upload ended before its last byte", undefined, {
      cause: error,
    });
  }
  if (e.code === "ENOSPC" || e.code === "EDQUOT") {
    return new ApiError(507, "ErrNoSpace", "the node has no space left for this file", undefined, {
      cause: error,
    });
  }
  return error;
}
