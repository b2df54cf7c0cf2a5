import type { FileHandle } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { writeStreamOf } from "../sandbox/index.ts";
import type { StepContext } from "./environment.ts";
import { installErrors } from "./errors.ts";
import { causeOf } from "./http.ts";

/**
 * Streams a response body into an open file (never holding more than a
 * chunk in memory), with a progress notice at most every
 * progressIntervalMs. The handle is closed either way.
 */
export async function streamToFile(
  ctx: StepContext,
  response: Response,
  handle: FileHandle,
  label: string,
): Promise<number> {
  const total = Number(response.headers.get("content-length")) || 0;
  let received = 0;
  let lastNotice = Date.now();
  const progress = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      const now = Date.now();
      if (now - lastNotice >= ctx.progressIntervalMs) {
        lastNotice = now;
        if (total) {
          const percent = Math.floor((received / total) * 100);
          ctx.notice("downloadProgressOf", { what: label, done: received, total, percent });
        } else ctx.notice("downloadProgress", { what: label, done: received });
      }
      done(null, chunk);
    },
  });
  if (!response.body) throw installErrors.failed(ctx.step, `${response.url || label} sent no body`);
  try {
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
      progress,
      writeStreamOf(handle),
      { signal: ctx.signal },
    );
  } catch (error) {
    if (ctx.signal.aborted) throw installErrors.cancelled();
    throw installErrors.failed(ctx.step, `download of ${label} broke off (${causeOf(error)})`);
  } finally {
    await handle.close();
  }
  if (total && received !== total) {
    throw installErrors.failed(ctx.step, `download of ${label} ended after ${received} of ${total} bytes`);
  }
  return received;
}

/**
 * The name a downloaded file gets, as the Go panel's downloader (grab)
 * picks it: the Content-Disposition filename, else the last segment of the
 * final URL's path. Only the last path component is ever kept, so a name
 * cannot place the file anywhere but the server folder's top.
 */
export function downloadName(response: Response, requested: string): string | undefined {
  const fromHeader = dispositionName(response.headers.get("content-disposition"));
  const candidates = [fromHeader, lastSegment(response.url || requested), lastSegment(requested)];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const name = candidate.replace(/\\/g, "/").split("/").pop() ?? "";
    if (name && name !== "." && name !== ".." && !name.includes("\0")) return name;
  }
  return undefined;
}

function lastSegment(url: string): string | undefined {
  try {
    const segment = new URL(url).pathname.split("/").pop();
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return undefined;
  }
}

/** `filename*=UTF-8''…` (RFC 5987) wins over `filename="…"`. */
export function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1].replace(/\\(.)/g, "$1");
  const bare = /filename\s*=\s*([^;\s]+)/i.exec(header);
  return bare?.[1];
}
