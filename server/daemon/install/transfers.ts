import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type ArchiveFormat, archiveFormat, extractOpened, extractTarStream } from "../archive/index.ts";
import { Sandbox, writeStreamOf } from "../sandbox/index.ts";
import { downloadName, streamToFile } from "./download-file.ts";
import type { StepContext } from "./environment.ts";
import { installErrors } from "./errors.ts";
import { request } from "./http.ts";

/**
 * Moving bytes for the steps: downloads into a server's folder, the node's
 * download cache, and archives fetched and unpacked. Everything streams;
 * everything that lands in a server folder goes through its sandbox.
 */

/** GET `url` into `target` (a path in `sandbox`, the server's by default). */
export async function downloadTo(
  ctx: StepContext,
  url: string,
  target: string,
  sandbox: Sandbox = ctx.sandbox,
  headers: Record<string, string> = {},
): Promise<number> {
  const response = await request(ctx, url, headers);
  return saveResponse(ctx, response, target, sandbox, url);
}

/** The `download` step for one URL: the file is named by the response (downloadName). */
export async function downloadNamed(ctx: StepContext, url: string): Promise<string> {
  const response = await request(ctx, url);
  const name = downloadName(response, url);
  if (!name) {
    await response.body?.cancel().catch(() => {});
    throw installErrors.failed(ctx.step, `no file name could be found for ${url}`);
  }
  await saveResponse(ctx, response, name, ctx.sandbox, url);
  return name;
}

/** Streams a response already received into `target` of `sandbox`; a broken transfer leaves no file. */
export async function saveResponse(
  ctx: StepContext,
  response: Response,
  target: string,
  sandbox: Sandbox,
  label: string,
): Promise<number> {
  const relative = sandbox.relative(target);
  await sandbox.mkdirp(path.posix.dirname(relative));
  const handle = await sandbox.openWrite(relative);
  try {
    return await streamToFile(ctx, response, handle, label);
  } catch (error) {
    // A broken download leaves no half file behind under the final name.
    await sandbox.remove(relative).catch(() => {});
    throw error;
  }
}

/**
 * A file from the node's download cache, fetched on first use (the Go
 * panel's DownloadViaMaven): Maven artifacts never change once published.
 * Without a cache folder the file is fetched into a temporary folder that
 * `release` removes.
 */
export async function cachedFile(
  ctx: StepContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ path: string; release(): Promise<void> }> {
  const parsed = new URL(url);
  if (!ctx.cacheDir) {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "outpost-download-"));
    const name = path.posix.basename(parsed.pathname) || "download";
    await downloadTo(ctx, url, name, new Sandbox(dir), headers);
    return { path: path.join(dir, name), release: () => fsp.rm(dir, { recursive: true, force: true }) };
  }
  await fsp.mkdir(ctx.cacheDir, { recursive: true });
  const cache = new Sandbox(ctx.cacheDir);
  const key = `${parsed.host.replace(/:/g, "_")}/${decodeURIComponent(parsed.pathname).replace(/^\/+/, "")}`;
  const existing = await cache.resolve(key);
  if (existing.stats?.isFile() && existing.stats.size > 0) {
    ctx.notice("cachedCopy", { url });
    return { path: existing.path, release: async () => {} };
  }
  ctx.notice("downloading", { url });
  const partial = `${key}.${randomBytes(4).toString("hex")}.part`;
  await downloadTo(ctx, url, partial, cache, headers);
  await cache.rename(partial, key);
  return { path: (await cache.resolve(key)).path, release: async () => {} };
}

/** Copies a node-owned file (from the cache) to a path in the server's folder. */
export async function copyInto(ctx: StepContext, file: string, target: string): Promise<void> {
  const relative = ctx.sandbox.relative(target);
  await ctx.sandbox.mkdirp(path.posix.dirname(relative));
  const handle = await ctx.sandbox.openWrite(relative);
  try {
    await pipeline(fs.createReadStream(file), writeStreamOf(handle), {
      signal: ctx.signal,
    });
  } finally {
    await handle.close();
  }
}

/**
 * Fetches an archive and unpacks it into `destination` of `sandbox` (the
 * Go panel's HttpExtract): tar formats straight from the response, zip
 * (which needs random access) through a temporary file.
 */
export async function fetchAndExtract(
  ctx: StepContext,
  url: string,
  sandbox: Sandbox,
  destination: string,
  knownFormat?: ArchiveFormat,
): Promise<void> {
  const response = await request(ctx, url);
  const name = downloadName(response, url) ?? "";
  const format = knownFormat ?? archiveFormat(name);
  if (!format) {
    await response.body?.cancel().catch(() => {});
    throw installErrors.failed(
      ctx.step,
      `${url} is not an archive this node can extract (${name || "no name"})`,
    );
  }
  if (format !== "zip") {
    if (!response.body) throw installErrors.failed(ctx.step, `${url} sent no body`);
    ctx.notice("downloadExtract", { url });
    await extractTarStream(
      sandbox,
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream),
      format,
      destination,
      {
        signal: ctx.signal,
      },
    );
    return;
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "outpost-extract-"));
  try {
    const scratch = new Sandbox(dir);
    await saveResponse(ctx, response, "archive.zip", scratch, url);
    const handle = await scratch.openRead("archive.zip");
    try {
      await extractOpened(handle, "zip", sandbox, destination, ctx.signal, 0, {
        ratio: ctx.extractMaxRatio,
      });
    } finally {
      await handle.close();
    }
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
