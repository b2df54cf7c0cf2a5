import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Header } from "tar";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import yazl from "yazl";
import type { InstallEnvironment } from "../../../../server/daemon/install/index.ts";
import { ConsoleBuffer } from "../../../../server/daemon/runtime/console-buffer.ts";
import { ApiError } from "../../../../server/errors.ts";
import type { ServerContext, VariableValue } from "../../../../server/templates/index.ts";

/**
 * Test support for the step executor: a real HTTP server on 127.0.0.1 that
 * serves fixture files, real folders, a real console buffer, and archives
 * built byte by byte (including the malicious ones no archiver would make).
 */

export type Route =
  | { body: Buffer | string; status?: number; headers?: Record<string, string>; chunkDelayMs?: number }
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export interface FixtureServer {
  url: string;
  /** Paths asked for, in order. */
  hits: string[];
  /** Request headers by path (last request). */
  headers: Map<string, http.IncomingHttpHeaders>;
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export async function startFixtureServer(routes: Record<string, Route> = {}): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const headers = new Map<string, http.IncomingHttpHeaders>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const key = url.pathname + url.search;
    hits.push(key);
    headers.set(url.pathname, req.headers);
    const route = table.get(key) ?? table.get(url.pathname);
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not here");
      return;
    }
    if (typeof route === "function") return route(req, res);
    const body = Buffer.from(route.body);
    res.writeHead(route.status ?? 200, { "content-length": String(body.length), ...route.headers });
    if (!route.chunkDelayMs) return res.end(body);
    // Dribbled out in pieces, so a download is seen in progress.
    let offset = 0;
    const next = () => {
      if (offset >= body.length) return res.end();
      res.write(body.subarray(offset, offset + 16 * 1024));
      offset += 16 * 1024;
      setTimeout(next, route.chunkDelayMs);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    headers,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fixture server for the calling file, closed after it, with its hits cleared before each test.
 * The answer is one object, filled when the file starts (its beforeAll may then add routes).
 */
export function fixtureServerForFile(): FixtureServer {
  const current = {} as FixtureServer;
  beforeAll(async () => {
    Object.assign(current, await startFixtureServer());
  });
  afterAll(() => current.close());
  beforeEach(() => {
    current.hits.length = 0;
  });
  return current;
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Scratch {
  base: string;
  root: string;
  outside: string;
  binaries: string;
  cache: string;
  console: ConsoleBuffer;
  text(): string;
  env(extra?: Partial<InstallEnvironment>): InstallEnvironment;
  cleanup(): void;
}

/** A server folder beside a folder that must stay untouched, plus the node's binaries and cache folders. */
export function scratch(): Scratch {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-install-"));
  const root = path.join(base, "servers", "abcd1234");
  const outside = path.join(base, "outside");
  const binaries = path.join(base, "binaries");
  const cache = path.join(base, "cache");
  for (const dir of [root, outside]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(outside, "keep.txt"), "untouched");
  const buffer = new ConsoleBuffer(1024 * 1024);
  return {
    base,
    root,
    outside,
    binaries,
    cache,
    console: buffer,
    text: () => buffer.since(0).logs.toString("utf8"),
    env: (extra = {}) => ({
      root,
      write: (data) => buffer.write(data),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, LANG: "C" },
      progressIntervalMs: 0,
      ...extra,
    }),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/**
 * A fresh scratch for each test of the calling file, removed after it. The answer is one object,
 * refilled before each test, so the file can keep it in a const.
 */
export function scratchEachTest(): Scratch {
  const current = {} as Scratch;
  beforeEach(() => {
    Object.assign(current, scratch());
  });
  afterEach(() => current.cleanup());
  return current;
}

/** The ApiError a step run rejects with (the test fails if it resolves or throws anything else). */
export async function installFailure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

export function serverContext(
  root: string,
  variables: Record<string, VariableValue> = {},
  userValues: ReadonlySet<string> = new Set(),
): ServerContext {
  return {
    serverId: "abcd1234",
    rootDir: root,
    os: "linux",
    arch: "amd64",
    env: "host",
    variables,
    userValues,
  };
}

/** Every path under a folder, relative, sorted. */
export function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

export interface TarMember {
  path: string;
  type?: "File" | "Directory" | "SymbolicLink" | "Link";
  body?: string | Buffer;
  linkpath?: string;
  mode?: number;
}

/** A tar archive written header by header: any name, any link, whatever a real archiver would refuse. */
export function rawTar(members: TarMember[]): Buffer {
  const blocks: Buffer[] = [];
  for (const member of members) {
    const type = member.type ?? "File";
    const body = type === "File" ? Buffer.from(member.body ?? "") : Buffer.alloc(0);
    const header = Buffer.alloc(512);
    new Header({
      path: member.path,
      type,
      size: body.length,
      mode: member.mode ?? (type === "Directory" ? 0o755 : 0o644),
      mtime: new Date(0),
      linkpath: member.linkpath,
      uid: 0,
      gid: 0,
    }).encode(header, 0);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const tarGz = (members: TarMember[]) => gzipSync(rawTar(members));

export interface ZipMember {
  name: string;
  body?: string | Buffer;
  mode?: number;
  directory?: boolean;
}

/** A zip from yazl; `rename` then swaps same-length names in the bytes, to make names yazl refuses. */
export async function zipOf(members: ZipMember[], rename: Record<string, string> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const member of members) {
    if (member.directory) zip.addEmptyDirectory(member.name, { mtime: new Date(0) });
    else
      zip.addBuffer(Buffer.from(member.body ?? ""), member.name, { mtime: new Date(0), mode: member.mode });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes: Buffer = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(rename)) {
    if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error("renames must keep the length");
    bytes = replaceAll(bytes, Buffer.from(from), Buffer.from(to));
  }
  return bytes;
}

function replaceAll(bytes: Buffer, from: Buffer, to: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  let at = copy.indexOf(from);
  while (at !== -1) {
    to.copy(copy, at);
    at = copy.indexOf(from, at + from.length);
  }
  return copy;
}

export const sha1 = (data: Buffer | string) => createHash("sha1").update(data).digest("hex");
