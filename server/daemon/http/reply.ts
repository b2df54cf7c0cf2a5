import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { HttpReply } from "../../http/file-http.ts";
import type { Serialize } from "./answer-serializer.ts";

/**
 * One answer, sent as Fastify sent the daemon's: an object or array as JSON
 * (`application/json; charset=utf-8`), text as text/plain, bytes and streams
 * as they are (octet-stream unless a type was set), nothing as an empty
 * body. A route with an `answer` schema writes its JSON with that schema's
 * serializer (answer-serializer.ts): only the fields the schema names. HEAD
 * gets the headers only. A stream that fails after its headers went out ends
 * the connection, so the reader sees a cut, not a short file.
 */
export class Reply implements HttpReply {
  private code = 200;
  private readonly headers: Record<string, string> = {};
  /** A payload was given (send() was called); the handler's return value is then not sent. */
  sent = false;
  /** The route's answer serializer; an error envelope is sent without it. */
  serialize: Serialize | undefined;

  constructor(
    readonly raw: ServerResponse,
    private readonly head = false,
  ) {}

  status(code: number): this {
    this.code = code;
    return this;
  }

  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  /** Serialises at once: an answer the serializer refuses (a required field missing) throws here, to be a 500. */
  send(payload?: unknown): this {
    let body: string | Buffer | Readable | undefined;
    let type: string | undefined;
    if (payload instanceof Readable) [body, type] = [payload, "application/octet-stream"];
    else if (Buffer.isBuffer(payload)) [body, type] = [payload, "application/octet-stream"];
    else if (typeof payload === "string") [body, type] = [payload, "text/plain; charset=utf-8"];
    else if (payload !== undefined && payload !== null) {
      const json = this.serialize ? this.serialize(payload) : JSON.stringify(payload);
      [body, type] = [json, "application/json; charset=utf-8"];
    }
    this.sent = true;
    const done = this.write(body, type);
    done.catch(() => this.raw.destroy());
    return this;
  }

  private async write(body: string | Buffer | Readable | undefined, type: string | undefined): Promise<void> {
    const { raw } = this;
    if (raw.headersSent || raw.destroyed) return;
    if (type && !this.headers["content-type"]) this.headers["content-type"] = type;
    if (
      !(body instanceof Readable) &&
      !this.headers["content-length"] &&
      this.code !== 204 &&
      this.code !== 304
    ) {
      this.headers["content-length"] = String(body === undefined ? 0 : Buffer.byteLength(body));
    }
    raw.writeHead(this.code, this.headers);
    if (body instanceof Readable) {
      if (this.head) {
        body.destroy();
        raw.end();
      } else await pipeline(body, raw);
    } else raw.end(this.head ? undefined : body);
  }
}
