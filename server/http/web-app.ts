import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";

const apiPrefixes = ["/api/", "/oauth2/", "/daemon/"];
/** Smaller files are sent as they are (the same threshold as @fastify/compress in app.ts). */
export const compressThreshold = 1024;
const isApiPath = (url: string) => apiPrefixes.some((p) => url.startsWith(p) || `${url}/` === p);

/**
 * Serves the built browser app on the panel's origin. Files are looked up on
 * each request, so a rebuild is served without a restart. Hashed assets are
 * cached for a year; everything else (index.html, sw.js, manifest) is
 * revalidated. Unknown GETs outside the API get index.html so client routes
 * load; a missing asset is a plain 404 (never HTML under a script's name);
 * unknown API paths get a 404 in the error envelope.
 */
export async function installWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = path.join(webDir, "index.html");
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`no built web app at ${webDir}: run "npm run build" (the API still works)`);
  }
  const assetsDir = path.join(webDir, "assets") + path.sep;
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: true,
    index: ["index.html"],
    cacheControl: false,
    // A folder ("/", "/assets/") is not a file: it falls through to the app (or a 404) below.
    allowedPath: (pathName) => !isApiPath(pathName) && !pathName.endsWith("/"),
    setHeaders(res, file, stat) {
      res.header(
        "Cache-Control",
        file.startsWith(assetsDir) ? "public, max-age=31536000, immutable" : "no-cache",
      );
      // Files go out as streams, for which @fastify/compress cannot apply its size threshold.
      if (stat.size < compressThreshold) res.request.headers["x-no-compression"] = "1";
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split("?")[0];
    if ((request.method !== "GET" && request.method !== "HEAD") || isApiPath(url)) {
      throw new ApiError(404, "ErrNotFound", "no such endpoint");
    }
    if (url.startsWith("/assets/") || /\.[a-z0-9]{1,8}$/i.test(url)) {
      return reply.status(404).type("text/plain").send("Not found");
    }
    if (!fs.existsSync(indexFile)) {
      return reply.status(503).type("text/plain").send('The web app is not built. Run "npm run build".');
    }
    reply.header("Cache-Control", "no-cache");
    return reply.sendFile("index.html");
  });
}
