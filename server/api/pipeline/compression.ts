import { availableParallelism } from "node:os";
import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type Encoding, preferredEncoding } from "./accept-encoding.ts";
import { isCompressible } from "./mime-types.ts";

/** Smaller answers are sent as they are: compressing them saves less than it costs. */
export const compressThreshold = 1024;

/** brotli at quality 4: near gzip's speed, smaller (11, the default, is far too slow per request). */
const brotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

export const compressSync: Record<Encoding, (body: string | Buffer) => Buffer> = {
  br: (body) => zlib.brotliCompressSync(body, brotliOptions),
  gzip: (body) => zlib.gzipSync(body),
};

const compressLater: Record<Encoding, (body: string | Buffer, done: zlib.CompressCallback) => void> = {
  br: (body, done) => zlib.brotliCompress(body, brotliOptions, done),
  gzip: (body, done) => zlib.gzip(body, done),
};

const compressStream: Record<Encoding, () => zlib.BrotliCompress | zlib.Gzip> = {
  br: () => zlib.createBrotliCompress(brotliOptions),
  gzip: () => zlib.createGzip(),
};

/**
 * Up to this size an answer is compressed at once on the event loop; a larger
 * one on libuv's threads, which pays only with cores to spare: 64 KiB on one
 * core, divided by 8 for each more (4 KiB from two), as @fastify/compress
 * measured it.
 */
const syncLimit = Math.max(4096, 65536 >> (3 * (Math.min(availableParallelism(), 4) - 1)));

/**
 * Compresses answers with br or gzip, whichever the request's Accept-Encoding
 * prefers (accept-encoding.ts), with `Vary: accept-encoding` on every answer
 * that may be compressed. Left as they are: answers under 1 KiB, of a type
 * that does not compress (images, archives, event streams), that carry a
 * Content-Encoding already (a cached list's copy, a precompressed file), a
 * range (its offsets count the bytes as they are), and requests with
 * `x-no-compression`. A stream stays a stream; one of unknown kind (a
 * downloaded file) is looked at first and left alone when its first bytes say
 * it is compressed already.
 */
export function installCompression(app: FastifyInstance): void {
  app.addHook("onSend", compressAnswer);
}

/** Answers whose encoding their route chose already (cached-answer.ts): not looked at again. */
const negotiated = new WeakSet<FastifyReply>();

/** Sends `body` as `encoding` (undefined: as it is), with `Vary: accept-encoding`, past compressAnswer. */
export function sendEncoded(reply: FastifyReply, body: Buffer, encoding: Encoding | undefined): void {
  negotiated.add(reply);
  reply.header("vary", "accept-encoding");
  if (encoding !== undefined) reply.header("content-encoding", encoding);
  reply.send(body);
}

type Done = (error: Error | null, payload?: unknown) => void;

function compressAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done): void {
  if (negotiated.has(reply)) {
    done(null, payload);
    return;
  }
  const size = sizeOf(reply, payload);
  const encoding = size === undefined ? undefined : chosenEncoding(request, reply, size);
  if (encoding === undefined) done(null, payload);
  else if (typeof payload === "string" || Buffer.isBuffer(payload))
    compressBody(reply, encoding, payload, size as number, done);
  else compressReadable(reply, encoding, payload as Readable, done);
}

/** A body's size in bytes, NaN for a stream of unknown length, undefined for what is not compressed. */
function sizeOf(reply: FastifyReply, payload: unknown): number | undefined {
  if (typeof payload === "string" || Buffer.isBuffer(payload)) return Buffer.byteLength(payload);
  if (!isReadable(payload)) return undefined;
  // A stream's length is known only when its sender said it.
  return reply.hasHeader("content-length") ? Number(reply.getHeader("content-length")) : Number.NaN;
}

/** The encoding to send an answer in, undefined to send it as it is. */
function chosenEncoding(request: FastifyRequest, reply: FastifyReply, size: number): Encoding | undefined {
  if (size < compressThreshold || request.headers["x-no-compression"] !== undefined) return undefined;
  const current = reply.getHeader("content-encoding");
  if (current !== undefined && current !== "identity") return undefined;
  if (reply.statusCode === 206 || reply.hasHeader("content-range")) return undefined;
  if (!isCompressible(contentTypeOf(reply))) return undefined;
  varyOnEncoding(reply);
  return preferredEncoding(request.headers["accept-encoding"]);
}

function compressBody(
  reply: FastifyReply,
  encoding: Encoding,
  body: string | Buffer,
  size: number,
  done: Done,
): void {
  if (size <= syncLimit) {
    done(null, encoded(reply, encoding, compressSync[encoding](body)));
  } else {
    compressLater[encoding](body, (error, out) =>
      error ? done(error) : done(null, encoded(reply, encoding, out)),
    );
  }
}

function compressReadable(reply: FastifyReply, encoding: Encoding, source: Readable, done: Done): void {
  if (!/octet-stream/i.test(contentTypeOf(reply))) {
    done(null, compressing(reply, encoding, source));
    return;
  }
  firstBytes(source).then(
    (head) => done(null, head && compressedAlready(head) ? source : compressing(reply, encoding, source)),
    (error: Error) => done(error),
  );
}

const contentTypeOf = (reply: FastifyReply) => String(reply.getHeader("content-type") ?? "application/json");

function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader("vary");
  if (vary === undefined) reply.header("vary", "accept-encoding");
  else if (!/accept-encoding|\*/i.test(String(vary))) reply.header("vary", `${vary}, accept-encoding`);
}

function encoded(reply: FastifyReply, encoding: Encoding, body: Buffer): Buffer {
  reply.header("content-encoding", encoding).header("content-length", String(body.length));
  return body;
}

function compressing(reply: FastifyReply, encoding: Encoding, source: Readable): Readable {
  reply.header("content-encoding", encoding).removeHeader("content-length");
  const compressor = compressStream[encoding]();
  // Fastify destroys the compressor when the client goes away; the pipeline then ends the source.
  pipeline(source, compressor, (error) => {
    if (error && (error as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE") {
      reply.log.warn({ err: error }, "compressing an answer failed");
    }
  });
  return compressor;
}

const isReadable = (payload: unknown): payload is Readable =>
  typeof payload === "object" &&
  payload !== null &&
  typeof (payload as Readable).pipe === "function" &&
  typeof (payload as Readable).on === "function";

/** The stream's first chunk, put back to be read again; undefined when it ends at once. */
function firstBytes(stream: Readable): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      stream.off("data", onData).off("end", onEnd).off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      settle();
      stream.pause();
      stream.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => {
      settle();
      resolve(undefined);
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    stream.on("data", onData).once("end", onEnd).once("error", onError);
  });
}

/** Signatures of formats that are compressed already: gzip, zip, xz, bzip2, zstd, 7z, rar, images, media. */
const signatures = [
  [0x1f, 0x8b],
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
  [0x42, 0x5a, 0x68],
  [0x28, 0xb5, 0x2f, 0xfd],
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c],
  [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07],
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
  [0x4f, 0x67, 0x67, 0x53],
  [0x49, 0x44, 0x33],
  [0x66, 0x4c, 0x61, 0x43],
];

export function compressedAlready(head: Buffer): boolean {
  if (signatures.some((s) => s.every((byte, i) => head[i] === byte))) return true;
  // ISO media (mp4, m4a) say "ftyp" at offset 4; webp is "RIFF", its size, "WEBP".
  const text = head.subarray(0, 12).toString("latin1");
  return text.slice(4, 8) === "ftyp" || (text.startsWith("RIFF") && text.slice(8, 12) === "WEBP");
}
