import type { Api, RouteContext } from "./types.ts";

/** a server's users under /api/servers/{id}/user (reference §12.13). */
export function serverUserRoutes(_app: Api, _ctx: RouteContext): void {}
