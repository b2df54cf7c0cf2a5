import type { Api, RouteContext } from "./types.ts";

/** HEAD and GET /api/servers/{id}/query (player count). */
export function queryRoutes(_app: Api, _ctx: RouteContext): void {}
