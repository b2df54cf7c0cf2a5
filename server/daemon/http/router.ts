import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
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

export interface RouteOptions<S extends RouteSchemas> {
  methods: string[];
  url: string;
  schemas: S;
  /** The body is left unread for the handler to stream (a file upload), whatever its type. */
  upload?: boolean;
  handler?: Handler<S>;
  /** A WebSocket route (GET with an upgrade). */
  socket?: SocketHandler<S>;
}

export interface Route extends RouteOptions<RouteSchemas> {
  segments: string[];
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/**
 * The daemon's routes, matched as Fastify's router matched them: `:name`
 * is one path segment (percent-decoded), a final `*` the rest; a static
 * segment wins over a parameter; a trailing slash is ignored; HEAD runs
 * the GET route when there is no HEAD route of its own. A path known for
 * another method only is not found (404), as in Fastify.
 */
export class Router {
  private readonly routes: Route[] = [];

  route<S extends RouteSchemas>(options: RouteOptions<S>): void {
    this.routes.push({ ...(options as RouteOptions<RouteSchemas>), segments: options.url.split("/") });
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

  /** The route for a method and a raw path (no query), or undefined. */
  find(method: string, path: string): Match | undefined {
    const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    const segments = trimmed.split("/");
    const own = this.best(method, segments);
    return own ?? (method === "HEAD" ? this.best("GET", segments, false) : undefined);
  }

  private best(method: string, segments: string[], sockets = true): Match | undefined {
    let found: { route: Route; rank: number[] } | undefined;
    for (const route of this.routes) {
      if (!route.methods.includes(method) || (!sockets && route.socket)) continue;
      const rank = rankOf(route.segments, segments);
      if (rank && (!found || outranks(rank, found.rank))) found = { route, rank };
    }
    return found && { route: found.route, params: paramsOf(found.route.segments, segments) };
  }
}

/** Per segment 2 (static), 1 (parameter) or 0 (the wildcard); undefined when the path does not match. */
function rankOf(pattern: string[], path: string[]): number[] | undefined {
  const rank: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i];
    if (part === "*" && i === pattern.length - 1)
      return path.length >= pattern.length ? [...rank, 0] : undefined;
    if (i >= path.length) return undefined;
    if (part.startsWith(":")) {
      if (path[i] === "") return undefined;
      rank.push(1);
    } else if (part === path[i]) rank.push(2);
    else return undefined;
  }
  return path.length === pattern.length ? rank : undefined;
}

function outranks(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] > b[i];
  return a.length > b.length;
}

function paramsOf(pattern: string[], path: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  pattern.forEach((part, i) => {
    if (part === "*") params["*"] = path.slice(i).join("/");
    else if (part.startsWith(":")) {
      try {
        params[part.slice(1)] = decodeURIComponent(path[i]);
      } catch (error) {
        throw new ApiError(400, "ErrBadUrl", "the address is not valid percent-encoding", undefined, {
          cause: error,
        });
      }
    }
  });
  return params;
}
