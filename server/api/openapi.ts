import { openApiDocument } from "./pipeline/openapi.ts";
import type { Api, RouteContext } from "./types.ts";

/** GET /api/openapi.json: the API described from its own route table (server/api/pipeline/openapi.ts). */
export function openApiRoutes(app: Api, { cookies }: RouteContext): void {
  let document: unknown;
  app.get("/api/openapi.json", { config: { access: "public" } }, async () => {
    // Built on first use: every route is registered by then, and it never changes after.
    document ??= openApiDocument(app, cookies.auth);
    return document;
  });
}
