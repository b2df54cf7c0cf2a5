import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { HttpReply } from "../../http/file-http.ts";

/**
 * One answer, sent as Fastify sent the daemon's: an object or array as JSON
 * (`application/json; charset=utf-8`), text as text/plain, bytes and streams
 * as they are (octet-stream unless a type was set), nothing as an empty
 * body. HEAD gets the headers only. A stream that fails after its headers
 * went out ends the connection, so the reader sees a cut, not a short file.
 */
export class Reply implements HttpReply {
  private code = 200;
  private readonly headers: Record<string, string> = {};
  /** A payload was given (send() was called); the handler's return value is then not sent. */
  sent = false;

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

  send(payload?: unknown): this {
    this.sent = true;
    const done = this.write(payload);
    done.catch(() => this.raw.destroy());
    return this;
  }

  private async write(payload: unknown): Promise<void> {
    const { raw } = this;
    if (raw.headersSent || raw.destroyed) return;
    let body: string | Buffer | Readable | undefined;
    let type: string | undefined;
    if (payload instanceof Readable) [body, type] = [payload, "application/octet-stream"];
    else if (Buffer.isBuffer(payload)) [body, type] = [payload, "application/octet-stream"];
    else if (typeof payload === "string") [body, type] = [payload, "text/plain; charset=utf-8"];
    else if (payload !== undefined && payload !== null) {
      [body, type] = [JSON.stringify(payload), "application/json; charset=utf-8"];
    }
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
