import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Api, RouteContext } from "./types.ts";

/**
 * GET /api/docs: a reference page for the API, rendered in the browser by
 * Swagger UI from /api/openapi.json. Its files are served from the
 * swagger-ui-dist package only when this page is opened; none of it is in
 * the app's bundle.
 */
const assets: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outpost API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

// Try-it-out calls carry the browser's session cookie; writes also need the XSRF header.
const start = `SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  requestInterceptor: (request) => {
    const xsrf = document.cookie.split("; ").find((c) => c.startsWith("XSRF-TOKEN="));
    if (xsrf) request.headers["X-XSRF-TOKEN"] = decodeURIComponent(xsrf.slice(11));
    return request;
  },
});
`;

export function apiDocsRoutes(app: Api, _ctx: RouteContext): void {
  const folder = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const cached = { "Cache-Control": "public, max-age=86400" };

  app.get("/api/docs", { config: { access: "public" } }, (_request, reply) =>
    reply.headers(cached).type("text/html; charset=utf-8").send(page),
  );
  app.get("/api/docs/start.js", { config: { access: "public" } }, (_request, reply) =>
    reply.headers(cached).type("text/javascript; charset=utf-8").send(start),
  );
  app.get<{ Params: { file: string } }>(
    "/api/docs/:file",
    { config: { access: "public" } },
    async (request, reply) => {
      // Only the named files of the package, never a path from the request.
      const type = Object.hasOwn(assets, request.params.file) ? assets[request.params.file] : undefined;
      if (!type) return reply.callNotFound();
      return reply
        .headers(cached)
        .type(type)
        .send(fs.createReadStream(path.join(folder, request.params.file)));
    },
  );
}
