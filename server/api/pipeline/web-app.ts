import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.ts";
import { contentTypeOf } from "./mime-types.ts";

// Single sign-on's round trip is the server's too: no client route lives under /auth/oidc/.
const apiPrefixes = ["/api/", "/oauth2/", "/daemon/", "/auth/oidc/"];
const isApiPath = (url: string) => apiPrefixes.some((p) => url.startsWith(p) || `${url}/` === p);
const immutable = "public, max-age=31536000, immutable";

/**
 * Serves the built browser app on the panel's origin. Files are looked up on
 * each request, so a rebuild is served without a restart. Hashed assets are
 * cached for a year; everything else (index.html, sw.js, icons) is
 * revalidated (ETag, Last-Modified, 304). Unknown GETs outside the API get
 * index.html so client routes load; a missing asset is a plain 404 (never
 * HTML under a script's name); unknown API paths get a 404 in the error
 * envelope. Compression is compression.ts's, as for every answer.
 */
export async function installWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const root = path.resolve(webDir);
  const indexFile = path.join(root, "index.html");
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`no built web app at ${webDir}: run "npm run build" (the API still works)`);
  }
  const assetsDir = path.join(root, "assets") + path.sep;

  app.route({
    method: ["GET", "HEAD"],
    url: "/*",
    handler: async (request, reply) => {
      const file = fileOf(root, request.url);
      const stat = file === undefined ? undefined : await fileStat(file);
      // A folder ("/", "/assets/") is not a file: it falls through to the app (or a 404) below.
      if (file === undefined || stat === undefined) return reply.callNotFound();
      return sendFile(request, reply, file, stat, file.startsWith(assetsDir) ? immutable : "no-cache");
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
    const stat = await fileStat(indexFile);
    if (stat === undefined) {
      return reply.status(503).type("text/plain").send('The web app is not built. Run "npm run build".');
    }
    return sendFile(request, reply, indexFile, stat, "no-cache");
  });
}

/**
 * The file a request's path names under `root`, or undefined: API paths,
 * folders, hidden files (the build's .vite/ manifest), `..`, and anything
 * that would leave `root` are not files of the app.
 */
export function fileOf(root: string, url: string): string | undefined {
  const query = url.indexOf("?");
  let pathname = query === -1 ? url : url.slice(0, query);
  if (isApiPath(pathname) || pathname.endsWith("/")) return undefined;
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (/[\0\\]/.test(pathname) || pathname.split("/").some((segment) => segment.startsWith("."))) {
    return undefined;
  }
  const file = path.join(root, pathname);
  return file.startsWith(root + path.sep) ? file : undefined;
}

async function fileStat(file: string): Promise<fs.Stats | undefined> {
  const stat = await fs.promises.stat(file).catch(() => undefined);
  return stat?.isFile() ? stat : undefined;
}

/** A file's bytes, or the headers alone (HEAD, 304), or one range of them (206). */
function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: string,
  stat: fs.Stats,
  cacheControl: string,
): FastifyReply {
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const lastModified = stat.mtime.toUTCString();
  reply
    .header("Cache-Control", cacheControl)
    .header("ETag", etag)
    .header("Last-Modified", lastModified)
    .header("Accept-Ranges", "bytes")
    .type(contentTypeOf(file));
  if (notModified(request, etag, stat.mtime)) return reply.code(304).send();

  const range = rangeOf(request, lastModified, stat.size);
  if (range === "unsatisfiable") {
    return reply.code(416).header("Content-Range", `bytes */${stat.size}`).type("text/plain").send();
  }
  const { start, end } = range ?? { start: 0, end: stat.size - 1 };
  reply.code(range ? 206 : 200).header("Content-Length", String(end - start + 1));
  if (range) reply.header("Content-Range", `bytes ${start}-${end}/${stat.size}`);
  if (request.method === "HEAD" || stat.size === 0) return reply.send();
  return reply.send(fs.createReadStream(file, { start, end }));
}

/** RFC 9110 §13.1.2-3: If-None-Match (weak comparison) first, else If-Modified-Since. */
function notModified(request: FastifyRequest, etag: string, mtime: Date): boolean {
  const noneMatch = request.headers["if-none-match"];
  if (noneMatch !== undefined) {
    const tag = etag.slice(2);
    return noneMatch.split(",").some((t) => {
      const candidate = t.trim();
      return candidate === "*" || candidate === etag || candidate === tag || candidate === `W/${tag}`;
    });
  }
  const since = Date.parse(request.headers["if-modified-since"] ?? "");
  return Number.isFinite(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
}

/**
 * The one byte range a request asks for (RFC 9110 §14.2), when If-Range (if
 * sent) still names this file. Several ranges, or a header that does not
 * parse, get the whole file, as the RFC allows.
 */
function rangeOf(
  request: FastifyRequest,
  lastModified: string,
  size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
  const header = request.headers.range;
  if (header === undefined) return undefined;
  const ifRange = request.headers["if-range"];
  // If-Range compares strongly: a weak ETag never matches it, the date does.
  if (ifRange !== undefined && ifRange !== lastModified) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return "unsatisfiable";
  if (end < start) return undefined;
  return { start, end };
}
