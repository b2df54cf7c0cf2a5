import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";

const apiPrefixes = ["/api/", "/oauth2/", "/daemon/"];
const isApiPath = (url: string) => apiPrefixes.some((p) => url.startsWith(p) || `${url}/` === p);

/**
 * Serves the built browser app on the panel's origin. Hashed assets are
 * cached for a year; everything else (index.html, sw.js, manifest) is
 * revalidated. Unknown GETs outside the API get index.html so client routes
 * load; unknown API paths get a 404 in the error envelope.
 */
export async function installWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = path.join(webDir, "index.html");
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(res, file) {
        const hashed = file.startsWith(path.join(webDir, "assets") + path.sep);
        res.header("Cache-Control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  } else {
    app.log.warn(`no built web app at ${webDir}: run "npm run build" (the API still works)`);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split("?")[0];
    if ((request.method !== "GET" && request.method !== "HEAD") || isApiPath(url)) {
      throw new ApiError(404, "ErrNotFound", "no such endpoint");
    }
    if (!built) {
      return reply.status(503).type("text/plain").send('The web app is not built. Run "npm run build".');
    }
    reply.header("Cache-Control", "no-cache");
    return reply.sendFile("index.html");
  });
}
