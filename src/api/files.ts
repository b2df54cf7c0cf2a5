import type { FileEntry } from "../../server/contract/api/files";
import { authHeaders, type CallOptions, del, post, put, sessionSettled } from "./client";
import { type ApiError, toApiError } from "./errors";

// A server's files (spec §7, reference §12.8–§12.9). Paths are relative to the server's folder.
//
// Most calls go through the shared client (its error handler included). Three cannot, because the
// client answers only the parsed body: browsing (a folder and a file answer on the same URL and
// only the Content-Disposition header tells them apart; a file must not be downloaded to find that
// out), reading a file for the editor (size and encoding are checked before it is shown) and
// uploading (fetch has no upload progress). Those throw an ApiError and leave reporting it to the
// caller, which passes it to the global handler.

/** One entry of a folder listing (folders and links carry only name and isFile; modifyTime in unix s). */
export type { FileEntry };

/** A file path as the URL wants it (spec §5): leading slashes stripped, encoded, slashes kept. */
export function encodeFilePath(path: string): string {
  return path.replace(/^\/+/, "").split("/").map(encodeURIComponent).join("/");
}

const serverBase = (serverId: string) => `/api/servers/${encodeURIComponent(serverId)}`;

/** The file URL; a plain link to it downloads the file (the session cookie authenticates). */
export const fileUrl = (serverId: string, path: string) =>
  `${serverBase(serverId)}/file/${encodeFilePath(path)}`;

/** Upload progress is reported in whole 64 KiB steps (spec §9), and as all of it once done. */
export const UPLOAD_STEP = 64 * 1024;

export function steppedProgress(loaded: number, total: number): number {
  if (loaded >= total) return total;
  return Math.floor(Math.max(0, loaded) / UPLOAD_STEP) * UPLOAD_STEP;
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function failed(method: string, url: string, res: Response): Promise<ApiError> {
  const body = parseBody(await res.text().catch(() => ""));
  return toApiError({ method, url }, res.status, res.statusText, body);
}

async function fetchOrFail(url: string, signal: AbortSignal | undefined): Promise<Response> {
  // Sent with the old cookie while the session rotates, it would come back 401 and end the session.
  await sessionSettled();
  let res: Response;
  try {
    res = await fetch(url, { credentials: "same-origin", headers: authHeaders("GET"), signal });
  } catch (e) {
    throw toApiError({ method: "GET", url }, undefined, undefined, undefined, e);
  }
  if (!res.ok) throw await failed("GET", url, res);
  return res;
}

export type Opened = { kind: "folder"; entries: FileEntry[] } | { kind: "file" };

/** A folder's entries, or word that the path is a file (its bytes are not read). */
export async function openPath(serverId: string, path: string, signal?: AbortSignal): Promise<Opened> {
  const url = fileUrl(serverId, path);
  const res = await fetchOrFail(url, signal);
  if (res.headers.has("Content-Disposition")) {
    await res.body?.cancel().catch(() => undefined);
    return { kind: "file" };
  }
  const entries = (await res.json()) as unknown;
  if (!Array.isArray(entries)) throw toApiError({ method: "GET", url }, res.status, res.statusText, entries);
  return { kind: "folder", entries: entries as FileEntry[] };
}

/** Why a file cannot be shown as text. */
export type NotTextReason = "tooLarge" | "binary" | "folder";

export class NotTextError extends Error {
  constructor(readonly reason: NotTextReason) {
    super(`not editable as text: ${reason}`);
    this.name = "NotTextError";
  }
}

/** The whole body if it has at most `limit` bytes; undefined (and the rest not read) if more. */
async function readAtMost(res: Response, limit: number): Promise<Uint8Array | undefined> {
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * A file's text, if it is UTF-8 text of at most `limit` bytes. A byte-order mark stays in the text
 * (as U+FEFF) so that saving writes it back.
 */
export async function readText(
  serverId: string,
  path: string,
  limit: number,
  signal?: AbortSignal,
): Promise<string> {
  const res = await fetchOrFail(fileUrl(serverId, path), signal);
  const cancel = () => res.body?.cancel().catch(() => undefined);
  if (!res.headers.has("Content-Disposition")) {
    await cancel();
    throw new NotTextError("folder");
  }
  const length = Number(res.headers.get("Content-Length") ?? Number.NaN);
  if (length > limit) {
    await cancel();
    throw new NotTextError("tooLarge");
  }
  const bytes = await readAtMost(res, limit);
  if (!bytes) throw new NotTextError("tooLarge");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new NotTextError("binary");
  }
  if (text.includes("\0")) throw new NotTextError("binary");
  return text;
}

/** Creates or replaces a file with this text (a raw body, reference §12.9). */
export const writeText = (serverId: string, path: string, text: string, opts?: CallOptions) =>
  put<void>(fileUrl(serverId, path), text, {
    ...opts,
    headers: { ...opts?.headers, "Content-Type": "application/octet-stream" },
  });

/** mkdir -p (reference §12.9: 200 with an empty body). */
export const createFolder = (serverId: string, path: string, opts?: CallOptions) =>
  put<void>(fileUrl(serverId, path), undefined, { ...opts, query: { folder: "true" } });

/** Removes a file, or a folder with everything in it. */
export const deletePath = (serverId: string, path: string, opts?: CallOptions) =>
  del<void>(fileUrl(serverId, path), opts);

/** Renames or moves; `to` is a path from the server's folder. An existing target is ErrFileExists. */
export const movePath = (serverId: string, from: string, to: string, opts?: CallOptions) =>
  post<void>(fileUrl(serverId, from), { action: "move", to }, opts);

/** Packs these paths into a new archive; its extension (.zip, .tar.gz) chooses the format. */
export const createArchive = (serverId: string, destination: string, paths: string[], opts?: CallOptions) =>
  post<void>(`${serverBase(serverId)}/archive/${encodeFilePath(destination)}`, paths, opts);

/** Unpacks an archive into a folder. */
export const extractArchive = (serverId: string, archive: string, destination: string, opts?: CallOptions) =>
  post<void>(`${serverBase(serverId)}/extract/${encodeFilePath(archive)}`, undefined, {
    ...opts,
    query: { destination: `/${destination.replace(/^\/+/, "")}` },
  });

export interface UploadOptions {
  /** Bytes of the file sent so far, in 64 KiB steps; called with the file's size once it is stored. */
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
}

/**
 * Uploads one file to `path` as multipart (field `file`) over XMLHttpRequest, the one browser API
 * that reports upload progress. Rejects with an ApiError (or an AbortError when cancelled).
 */
export async function uploadFile(
  serverId: string,
  path: string,
  file: Blob,
  opts: UploadOptions = {},
): Promise<void> {
  const url = fileUrl(serverId, path);
  await sessionSettled();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const done = () => opts.signal?.removeEventListener("abort", abort);
    xhr.open("PUT", url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(authHeaders("PUT"))) xhr.setRequestHeader(name, value);
    // The multipart body is a little larger than the file: progress counts the file's bytes.
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(Math.min(file.size, steppedProgress(e.loaded, e.total)));
    };
    xhr.onload = () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(file.size);
        resolve();
      } else {
        reject(toApiError({ method: "PUT", url }, xhr.status, xhr.statusText, parseBody(xhr.responseText)));
      }
    };
    xhr.onerror = () => {
      done();
      reject(toApiError({ method: "PUT", url }, undefined, undefined, undefined));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException("upload cancelled", "AbortError"));
    };
    if (opts.signal?.aborted) {
      reject(new DOMException("upload cancelled", "AbortError"));
      return;
    }
    opts.signal?.addEventListener("abort", abort);
    const form = new FormData();
    form.append("file", file, file instanceof File ? file.name : "upload");
    xhr.send(form);
  });
}
