import type { IncomingMessage } from "node:http";
import { ApiError } from "../../errors.ts";
import { maxJsonDepth, nestsDeeperThan } from "../../http/json-body.ts";

/** Fastify's default body limit, which the daemon had: the panel sends it no bigger body (uploads stream). */
export const bodyLimit = 1024 * 1024;

const invalidJson = () =>
  new ApiError(400, "ErrInvalidJson", "Body is not valid JSON but content-type is set to 'application/json'");

/**
 * A request's body as Fastify parsed it for the daemon: none for GET and
 * HEAD or when nothing was sent; `application/json` parsed (not empty, not
 * nested too deep, no prototype poisoning), `text/plain` as text; any other
 * type 415. More than `limit` bytes is 413.
 */
export async function readBody(request: IncomingMessage, limit = bodyLimit): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const { "content-type": type, "content-length": length, "transfer-encoding": chunked } = request.headers;
  if (type === undefined && chunked === undefined && (length === undefined || length === "0"))
    return undefined;
  const media = (type ?? "").split(";")[0].trim().toLowerCase();
  if (media !== "application/json" && media !== "text/plain") {
    throw new ApiError(415, "ErrUnsupportedMediaType", "Unsupported Media Type");
  }
  const text = await readText(request, limit);
  if (media === "text/plain") return text;
  if (text.length === 0) {
    throw new ApiError(
      400,
      "ErrInvalidJson",
      "Body cannot be empty when content-type is set to 'application/json'",
    );
  }
  if (nestsDeeperThan(text, maxJsonDepth)) {
    throw new ApiError(400, "ErrInvalidJson", "the JSON body nests deeper than ${max} levels", {
      max: maxJsonDepth,
    });
  }
  return parseJson(text);
}

function readText(request: IncomingMessage, limit: number): Promise<string> {
  const tooLarge = () => new ApiError(413, "ErrBodyTooLarge", "Request body is too large");
  if (Number(request.headers["content-length"]) > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        request.off("data", onData);
        // The rest is read and dropped, so that the client gets the 413 (see drainRequest).
        request.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve(Buffer.concat(chunks, received).toString("utf8")));
    // The client went away mid-body: nobody reads the answer, Fastify's was a 400 too.
    request.once("error", () => reject(new ApiError(400, "ErrBadRequest", "bad request")));
  });
}

/**
 * JSON.parse, refusing `__proto__` keys and `constructor.prototype` as
 * Fastify's parser does (a later merge of the value must not reach
 * Object.prototype). Keys may hide behind \u escapes, so those are checked too.
 */
function parseJson(text: string): unknown {
  try {
    if (!/__proto__|constructor|\\u/.test(text)) return JSON.parse(text);
    return JSON.parse(text, (key, value) => {
      if (key === "__proto__") throw invalidJson();
      if (key === "constructor" && value !== null && typeof value === "object" && "prototype" in value) {
        throw invalidJson();
      }
      return value;
    });
  } catch {
    throw invalidJson();
  }
}
