import path from "node:path";

/**
 * The content types of the files the panel serves itself: the built web app
 * (scripts, styles, HTML, icons, the service worker) and what may sit beside
 * it. Anything else goes as bytes. A full MIME database (1 MiB of JSON) is not
 * worth loading for these.
 */
const byExtension: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".wasm": "application/wasm",
  ".tar": "application/x-tar",
};

export function contentTypeOf(file: string): string {
  const extension = path.extname(file).toLowerCase();
  return Object.hasOwn(byExtension, extension) ? byExtension[extension] : "application/octet-stream";
}

/**
 * Types worth compressing: text, JSON, XML, scripts, SVG, tar, and bytes of
 * unknown kind (a downloaded file; compressed.ts looks at its first bytes).
 * Images, fonts, archives and media are compressed already.
 */
const compressible =
  /^(?:text\/(?!event-stream)|application\/(?:javascript|wasm|x-tar|octet-stream)(?:;|$)|image\/svg\+xml)|[+/](?:json|xml|text)(?:;|$)/i;

export const isCompressible = (contentType: string): boolean => compressible.test(contentType);
