import type { Api, RouteContext } from "./types.ts";

/** the file manager under /api/servers/{id}/file, /archive and /extract (reference §12.8–§12.9). */
export function fileRoutes(_app: Api, _ctx: RouteContext): void {}
