import type { Readable } from "node:stream";
import { ApiError } from "../../errors.ts";
import { checkedGet, UnreachableAddress } from "../../net/public-address.ts";
import { fetchTimeouts } from "./repo-fetch.ts";
import { archiveLimits } from "./repo-files.ts";

/**
 * A template or an egg fetched by URL for the Templates page's import (issue 28): the panel
 * fetches it, so the browser needs no CORS from the host. For an administrator, any http(s)
 * address (a mirror on the site's own network); for anyone else, public addresses only,
 * checked where the connection is made and again at every redirect (server/net/public-address.ts),
 * and every failure worded the same, as for their template repositories. At most one template
 * file's size (repo-files.ts), within the repository fetch's timeouts. The text is answered
 * as it is: the browser converts and checks it as it does an uploaded file.
 */
export const importLimits = { bytes: archiveLimits.fileBytes, ...fetchTimeouts };

const failed = (reason: string) =>
  new ApiError(502, "ErrImportFailed", "the file could not be fetched: ${reason}", { reason });

const invalidUrl = () =>
  new ApiError(400, "ErrFieldInvalid", "${field} must be an http(s) URL", { field: "url" });

export async function fetchTemplateText(given: string, opts: { byAdmin: boolean }): Promise<string> {
  let url: URL;
  try {
    url = new URL(given.trim());
  } catch {
    throw invalidUrl();
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidUrl();

  const answered = new AbortController();
  const connect = setTimeout(
    () => answered.abort(new Error(`no answer within ${importLimits.connectMs / 1000} s`)),
    importLimits.connectMs,
  );
  const signal = AbortSignal.any([AbortSignal.timeout(importLimits.totalMs), answered.signal]);
  const why = (err: unknown) => {
    if (!opts.byAdmin) return "it could not be reached";
    // fetch's own error says only "fetch failed": its cause says why (refused, not found …).
    const cause = answered.signal.aborted ? answered.signal.reason : ((err as Error).cause ?? err);
    return cause instanceof Error ? cause.message : String(cause);
  };
  let body: Readable | ReadableStream<Uint8Array>;
  try {
    if (opts.byAdmin) {
      const res = await fetch(url, { signal });
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      body = res.body;
    } else {
      body = await checkedGet(url.toString(), { signal });
    }
  } catch (err) {
    throw failed(err instanceof UnreachableAddress ? "it could not be reached" : why(err));
  } finally {
    clearTimeout(connect);
  }

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Leaving the loop early (too large, timed out) ends the download: the iterator cancels it.
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > importLimits.bytes)
        throw failed(`it is larger than ${importLimits.bytes / 1024 / 1024} MiB`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw failed(why(err));
  }
  return Buffer.concat(chunks).toString("utf8");
}
