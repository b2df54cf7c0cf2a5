import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { TSchema } from "typebox";
import type { WebSocketServer } from "ws";
import { ApiError } from "../../errors.ts";
import { errorHeaders } from "../../http/error-headers.ts";
import { drainRequest, StreamedBody } from "../../http/file-http.ts";
import { redactUrl } from "../../http/log-redaction.ts";
import { firstBreak } from "../../http/schema-check.ts";
import { serializerFor } from "./answer-serializer.ts";
import type { Logger } from "./logger.ts";
import { Reply } from "./reply.ts";
import { readBody } from "./request-body.ts";
import type { DaemonRequest, Match, Route, Router } from "./router.ts";
import { checked } from "./validate.ts";

export interface HttpServerOptions {
  router: Router;
  log: Logger;
  /** Runs before anything else for every request and WebSocket upgrade; throws an ApiError to refuse. */
  authorize(request: IncomingMessage, path: string, log: Logger): void;
  /**
   * Checks each JSON answer against its route's `answer` schema before it goes
   * out; one that breaks it is logged and answered 500. (Every answer of such
   * a route is written by that schema's serializer, check or not, see
   * answer-serializer.ts; the serializer drops and coerces silently.) On in tests (and with
   * OUTPOST_CHECK_ANSWERS=1), off by default: the panel checks every answer it
   * reads anyway, and a check per console or stats poll is time a node's
   * game servers could use.
   */
  checkAnswers?: boolean;
}

const notFound = () => new ApiError(404, "ErrNotFound", "no such endpoint");

/**
 * The daemon's HTTP server: node:http with the daemon's Router, WebSockets
 * through `ws` on the same port. Every refusal and failure is the API's
 * envelope `{"error":{"code","msg","metadata"}}`; an unexpected error is
 * logged with its stack and answered ErrUnknownError, nothing more.
 */
export class HttpServer {
  readonly server: http.Server;
  /** Made with the first WebSocket: `ws` is not loaded before (an idle node has none). */
  private sockets: Promise<WebSocketServer> | undefined;
  private requests = 0;

  constructor(private readonly options: HttpServerOptions) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    // As Fastify had them: no time limit on a request (an upload of gigabytes), keep-alive 72 s.
    this.server.requestTimeout = 0;
    this.server.keepAliveTimeout = 72_000;
    this.server.on("upgrade", (req, socket, head) => void this.upgrade(req, socket, head));
    this.server.on("clientError", (_error, socket) => {
      if (socket.writable) rawAnswer(socket, new ApiError(400, "ErrBadRequest", "bad request"));
      else socket.destroy();
    });
  }

  /** Listens; resolves with the address (`http://host:port`). */
  async listen(host: string, port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    const address = this.server.address() as { address: string; port: number };
    const shown = address.address.includes(":") ? `[${address.address}]` : address.address;
    return `http://${shown}:${address.port}`;
  }

  /** Stops taking calls, says goodbye on every WebSocket and waits for the calls under way. */
  async close(): Promise<void> {
    const sockets = await this.sockets;
    for (const socket of sockets?.clients ?? []) socket.close(1001, "the node is stopping");
    // A peer that does not answer the close frame is cut off.
    setTimeout(() => {
      for (const socket of sockets?.clients ?? []) socket.terminate();
    }, 2000).unref();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    await closed;
    sockets?.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const log = this.requestLog(req, res);
    const reply = new Reply(res, req.method === "HEAD");
    try {
      const { match, request } = await this.routed(req, log, "");
      const { route } = match;
      request.body = route.upload ? new StreamedBody(req) : await readBody(req);
      if (route.schemas.body) request.body = await valid(route.schemas.body, request.body, "body");
      if (route.schemas.answer) reply.serialize = await serializerFor(route.schemas.answer);
      const result = await route.handler?.(request, reply);
      if (reply.sent) return;
      if (this.options.checkAnswers && route.schemas.answer && result !== undefined) {
        await answerKeeps(route.schemas.answer, result, route.url);
      }
      reply.send(result);
    } catch (error) {
      const apiError = this.toApiError(error, log);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      reply.serialize = undefined;
      // What the handler had set stays (a 416's Content-Range), as with Fastify.
      for (const [name, value] of Object.entries(errorHeaders(apiError))) reply.header(name, value);
      if (apiError.status === 413) {
        // The client is told once its body is in (see drainRequest), then the connection ends.
        await drainRequest(req);
        reply.header("connection", "close");
      }
      reply.header("content-type", "application/json; charset=utf-8");
      reply.status(apiError.status).send(apiError.toBody());
    }
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on("error", () => socket.destroy());
    const log = this.options.log.child({ reqId: `req-${++this.requests}` });
    const protocol = req.headers.upgrade?.toLowerCase() ?? "";
    let routed: { match: Match; request: DaemonRequest };
    let takeOver: ((connection: Duplex) => Promise<void>) | undefined;
    try {
      routed = await this.routed(req, log, protocol);
      takeOver = routed.match.route.takeOver?.handler(routed.request);
    } catch (error) {
      rawAnswer(socket, this.toApiError(error, log));
      return;
    }
    const { match, request } = routed;
    try {
      if (takeOver) {
        if (head.length > 0) socket.unshift(head);
        // The other end hanging up midway is not the node's bug.
        await takeOver(socket).catch((error) =>
          log.warn({ err: error }, "an upgraded connection ended early"),
        );
        return;
      }
      this.sockets ??= import("ws").then(({ WebSocketServer }) => new WebSocketServer({ noServer: true }));
      (await this.sockets).handleUpgrade(req, socket, head, (ws) => {
        Promise.resolve(match.route.socket?.(ws, request)).catch((error) => {
          log.error({ err: error }, "unhandled error");
          ws.close(1011);
        });
      });
    } catch (error) {
      // Nothing of it reaches the client; the process goes on.
      log.error({ err: error }, "unhandled error");
      socket.destroy();
    }
  }

  /** Authorizes, finds the route and checks its path and query; the body is left for later. */
  private async routed(
    req: IncomingMessage,
    log: Logger,
    /** The protocol an upgrade asks for ("websocket", or a route's own), "" for a plain request. */
    upgrade: string,
  ): Promise<{ match: Match; request: DaemonRequest }> {
    const url = req.url ?? "/";
    const path = url.split("?")[0];
    this.options.authorize(req, path, log);
    const match = this.options.router.find(upgrade ? "GET" : (req.method ?? "GET"), path);
    const speaks = (route: Route) =>
      upgrade === "websocket" ? Boolean(route.socket) : route.takeOver?.protocol === upgrade;
    if (!match || (upgrade ? !speaks(match.route) : Boolean(match.route.socket || match.route.takeOver)))
      throw notFound();
    const { schemas } = match.route;
    const request: DaemonRequest = {
      method: req.method ?? "GET",
      url,
      route: match.route.url,
      headers: req.headers,
      raw: req,
      log,
      params: schemas.params ? await valid(schemas.params, match.params, "params") : match.params,
      query: undefined,
      body: undefined,
    };
    const query = queryOf(url);
    request.query = schemas.query ? await valid(schemas.query, query, "querystring") : query;
    return { match, request };
  }

  /** The request's logger; at debug level each request and its answer are logged (the address redacted). */
  private requestLog(req: IncomingMessage, res: ServerResponse): Logger {
    const log = this.options.log.child({ reqId: `req-${++this.requests}` });
    if (!log.isDebug) return log;
    const started = performance.now();
    const { socket } = req;
    log.debug(
      {
        req: {
          method: req.method,
          url: redactUrl(req.url ?? ""),
          host: req.headers.host,
          remoteAddress: socket.remoteAddress,
          remotePort: socket.remotePort,
        },
      },
      "incoming request",
    );
    res.once("finish", () =>
      log.debug(
        { res: { statusCode: res.statusCode }, responseTime: performance.now() - started },
        "request completed",
      ),
    );
    return log;
  }

  private toApiError(error: unknown, log: Logger): ApiError {
    if (error instanceof ApiError) return error;
    log.error({ err: error }, "unhandled error");
    return new ApiError(500, "ErrUnknownError", "an unexpected error occurred");
  }
}

async function valid(
  schema: TSchema,
  value: unknown,
  part: "params" | "querystring" | "body",
): Promise<unknown> {
  const result = await checked(schema, value, part);
  if ("error" in result) throw result.error;
  return result.value;
}

/** An answer that breaks its route's schema is the node's own bug: a 500, logged with where it broke. */
async function answerKeeps(schema: TSchema, answer: unknown, route: string): Promise<void> {
  const broken = await firstBreak(schema, JSON.parse(JSON.stringify(answer)));
  if (broken) {
    throw new Error(`the answer of ${route} breaks its schema at "${broken.path}": ${broken.message}`);
  }
}

/** The query string as Fastify gave it: a repeated name as an array, `?flag` as "". */
function queryOf(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  const q = url.indexOf("?");
  if (q < 0) return query;
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (name === "__proto__") continue;
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return query;
}

/** An error answered on a bare socket (a refused WebSocket upgrade, a malformed request), then closed. */
function rawAnswer(socket: Duplex, error: ApiError): void {
  const body = JSON.stringify(error.toBody());
  const headers = {
    ...errorHeaders(error),
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status] ?? ""}\r\n${lines.join("")}\r\n${body}`,
  );
}
