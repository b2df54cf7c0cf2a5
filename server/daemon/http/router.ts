import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { Static, TSchema } from "typebox";
import type { WebSocket } from "ws";
import { ApiError } from "../../errors.ts";
import type { Logger } from "./logger.ts";
import type { Reply } from "./reply.ts";

/**
 * A route's side of the panel↔node contract (server/contract/node): the
 * TypeBox schemas its request is checked against (validate.ts), and the one
 * its JSON answer keeps (checked where answers are checked, see HttpServer).
 */
export interface RouteSchemas {
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  answer?: TSchema;
}

type Part<S extends RouteSchemas, K extends keyof RouteSchemas> = S[K] extends TSchema
  ? Static<S[K]>
  : unknown;

export interface DaemonRequest<S extends RouteSchemas = RouteSchemas> {
  readonly method: string;
  /** As it came, with its query string. */
  readonly url: string;
  /** The pattern of the route it matched (`/daemon/server/:id/file/*`). */
  readonly route: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: IncomingMessage;
  readonly log: Logger;
  params: Part<S, "params">;
  query: Part<S, "query">;
  body: Part<S, "body">;
}

export type Handler<S extends RouteSchemas> = (request: DaemonRequest<S>, reply: Reply) => unknown;
export type SocketHandler<S extends RouteSchemas> = (socket: WebSocket, request: DaemonRequest<S>) => unknown;
/**
 * A route that takes an upgraded connection over as it is (not a WebSocket):
 * called with the request, it refuses by throwing (answered over HTTP) or
 * answers what carries the connection from there.
 */
export type TakeOverHandler<S extends RouteSchemas> = (
  request: DaemonRequest<S>,
) => (connection: Duplex) => Promise<void>;

export interface RouteOptions<S extends RouteSchemas> {
  methods: string[];
  url: string;
  schemas: S;
  /** The body is left unread for the handler to stream (a file upload), whatever its type. */
  upload?: boolean;
  handler?: Handler<S>;
  /** A WebSocket route (GET with an upgrade). */
  socket?: SocketHandler<S>;
  /** A GET with an upgrade to another protocol (`Upgrade: <protocol>`), which this route speaks. */
  takeOver?: { protocol: string; handler: TakeOverHandler<S> };
}

export type Route = RouteOptions<RouteSchemas>;

export interface Match {
  route: Route;
  params: Record<string, string>;
}

const unused = () => undefined;

/**
 * The daemon's routes, in find-my-way (Fastify's router, so matched as the
 * panel's routes are): `:name` is one path segment (percent-decoded, never
 * empty), a final `*` the rest (decoded too: file routes read their path
 * from the raw URL, server/http/request-path.ts); a static segment wins
 * over a parameter; a trailing slash is ignored; HEAD runs the GET route
 * when there is no HEAD route of its own. A path known for another method
 * only is not found (404), as in Fastify; one that is not valid
 * percent-encoding is a 400.
 *
 * bench/daemon-router.ts (the daemon's 54 routes, the paths a panel calls,
 * one run) measured this 13 times as fast as the hand-written matcher it
 * replaced (1.0 µs a lookup against 12.8 µs, on a loaded machine), for
 * 60 KiB more in the daemon bundle and no change in its settled idle RSS
 * (51 MiB before and after, bench/idle-rss.ts).
 */
export class Router {
  private readonly tree = FindMyWay({ ignoreTrailingSlash: true });

  route<S extends RouteSchemas>(options: RouteOptions<S>): void {
    this.tree.on(options.methods as HTTPMethod[], options.url, unused, options as Route);
  }
  get<S extends RouteSchemas>(url: string, schemas: S, handler: Handler<S>): void {
    this.route({ methods: ["GET"], url, schemas, handler });
  }
  head<S extends RouteSchemas>(url: string, schemas: S, handler: Handler<S>): void {
    this.route({ methods: ["HEAD"], url, schemas, handler });
  }
  put<S extends RouteSchemas>(url: string, schemas: S, handler: Handler<S>): void {
    this.route({ methods: ["PUT"], url, schemas, handler });
  }
  post<S extends RouteSchemas>(url: string, schemas: S, handler: Handler<S>): void {
    this.route({ methods: ["POST"], url, schemas, handler });
  }
  delete<S extends RouteSchemas>(url: string, schemas: S, handler: Handler<S>): void {
    this.route({ methods: ["DELETE"], url, schemas, handler });
  }
  socket<S extends RouteSchemas>(url: string, schemas: S, socket: SocketHandler<S>): void {
    this.route({ methods: ["GET"], url, schemas, socket });
  }
  takeOver<S extends RouteSchemas>(
    url: string,
    schemas: S,
    protocol: string,
    handler: TakeOverHandler<S>,
  ): void {
    this.route({ methods: ["GET"], url, schemas, takeOver: { protocol, handler } });
  }

  /** The route for a method and a raw path (no query), or undefined. */
  find(method: string, path: string): Match | undefined {
    const found =
      this.lookup(method, path) ?? (method === "HEAD" ? this.lookup("GET", path, false) : undefined);
    if (!found) refuseBadEncoding(path);
    return found;
  }

  private lookup(method: string, path: string, sockets = true): Match | undefined {
    const found = this.tree.find(method as HTTPMethod, path);
    if (!found) return undefined;
    const route = found.store as Route;
    const params = found.params as Record<string, string>;
    if (!sockets && (route.socket || route.takeOver)) return undefined;
    // find-my-way lets `/server//status` match `:id` with ""; a parameter names something.
    for (const name in params) if (params[name] === "" && name !== "*") return undefined;
    return { route, params };
  }
}

/** find-my-way finds nothing for a path it cannot decode: that is the client's mistake, a 400. */
function refuseBadEncoding(path: string): void {
  try {
    decodeURIComponent(path);
  } catch (error) {
    throw new ApiError(400, "ErrBadUrl", "the address is not valid percent-encoding", undefined, {
      cause: error,
    });
  }
}
