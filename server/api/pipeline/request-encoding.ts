import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../../errors.ts";

const decompressors: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  "x-gzip": () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * A request body sent with `Content-Encoding` gzip, deflate or br is
 * decompressed before it is parsed (uploads too); another encoding is refused
 * with 415. Fastify's bodyLimit counts the decompressed bytes (no zip bomb)
 * and compares the received ones with Content-Length.
 */
export function installRequestDecoding(app: FastifyInstance): void {
  app.addHook("preParsing", (request, _reply, payload, done) => {
    const encoding = request.headers["content-encoding"]?.trim().toLowerCase();
    if (encoding === undefined || encoding === "" || encoding === "identity") return done(null, payload);
    const decompressor = Object.hasOwn(decompressors, encoding) ? decompressors[encoding]() : undefined;
    if (decompressor === undefined) {
      return done(
        new ApiError(415, "ErrUnsupportedEncoding", "content encoding ${encoding} is not supported", {
          encoding,
        }),
      );
    }
    const decoded = decompressor as typeof decompressor & { receivedEncodedLength: number };
    decoded.receivedEncodedLength = 0;
    payload.on("data", (chunk: Buffer) => {
      decoded.receivedEncodedLength += chunk.length;
    });
    // A body that does not decompress is the client's error: 400, not 500.
    decoded.once("error", (error) => Object.assign(error, { statusCode: 400 }));
    pipeline(payload, decoded, () => {});
    done(null, decoded as unknown as Readable & typeof payload);
  });
}
