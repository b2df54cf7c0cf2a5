/**
 * The daemon's hand-written route matcher that find-my-way replaced (server/daemon/http/router.ts
 * before it), kept as bench/daemon-router.ts's reference: a linear scan ranking every route.
 */

import type { RouteOptions, RouteSchemas } from "../server/daemon/http/router.ts";
import { ApiError } from "../server/errors.ts";

interface Route extends RouteOptions<RouteSchemas> {
  segments: string[];
}

interface Match {
  route: Route;
  params: Record<string, string>;
}

export class HandWrittenRouter {
  private readonly routes: Route[] = [];

  route<S extends RouteSchemas>(options: RouteOptions<S>): void {
    this.routes.push({ ...(options as RouteOptions<RouteSchemas>), segments: options.url.split("/") });
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
