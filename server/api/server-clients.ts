import type { Api, RouteContext } from "./types.ts";

/** OAuth2 clients bound to one server, under /api/servers/{id}/oauth2. */
export function serverClientRoutes(_app: Api, _ctx: RouteContext): void {}
