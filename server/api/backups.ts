import type { Api, RouteContext } from "./types.ts";

/** backups under /api/servers/{id}/backup (reference §12.19). */
export function backupRoutes(_app: Api, _ctx: RouteContext): void {}
