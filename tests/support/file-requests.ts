import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import type { PanelClient } from "./http-client.ts";

/** An answer with its body as bytes (a download) and, when it is JSON, parsed. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: any;
  text: string;
}

/** The cookies and, on an unsafe method, the XSRF header a browser would send for this client. */
export function sessionHeaders(client: PanelClient, method: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (client.cookies.size) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const xsrf = client.cookies.get("XSRF-TOKEN");
  if (!["GET", "HEAD"].includes(method) && xsrf) headers["x-xsrf-token"] = xsrf;
  return headers;
}

/**
 * A request whose path goes on the wire exactly as written: fetch and URL
 * would resolve `../` and `%2e%2e/` segments before sending, which is not
 * what an attacker's client does.
 */
export function rawRequest(
  client: PanelClient,
  method: string,
  rawPath: string,
  opts: { body?: Buffer | string | Readable; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const url = new URL(client.baseUrl);
  const headers: Record<string, string> = { ...sessionHeaders(client, method), ...opts.headers };
  if (typeof opts.body === "string" || Buffer.isBuffer(opts.body)) {
    headers["content-length"] = String(Buffer.byteLength(opts.body));
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      // A connection of its own: a kept-alive one the panel has just closed (after a refused request)
      // would reset under the next write, which fetch retries and this does not.
      { host: url.hostname, port: url.port, method, path: rawPath, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          const text = body.toString();
          let json: any;
          if ((res.headers["content-type"] ?? "").includes("json") && text) json = JSON.parse(text);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json, text });
        });
      },
    );
    request.on("error", reject);
    if (opts.body instanceof Readable) opts.body.pipe(request);
    else request.end(opts.body);
  });
}

/** Uploads bytes as a raw PUT body. */
export function upload(
  client: PanelClient,
  filePath: string,
  body: Buffer | string,
  contentType = "application/octet-stream",
): Promise<RawAnswer> {
  return rawRequest(client, "PUT", filePath, { body, headers: { "content-type": contentType } });
}

/** Uploads bytes as the web client does: multipart/form-data with a `file` field. */
export async function uploadMultipart(
  client: PanelClient,
  filePath: string,
  body: Buffer | string,
  contentType?: (real: string) => string,
): Promise<RawAnswer> {
  const form = new FormData();
  form.append("file", new Blob([typeof body === "string" ? body : new Uint8Array(body)]), "upload.bin");
  const encoded = new Response(form);
  const type = encoded.headers.get("content-type") ?? "";
  const bytes = Buffer.from(await encoded.arrayBuffer());
  return rawRequest(client, "PUT", filePath, {
    body: bytes,
    headers: { "content-type": contentType ? contentType(type) : type },
  });
}

/** Every path under a folder on disk, relative and sorted (links not followed). */
export function treeOf(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

/** A server's folder on the local node of a panel with this data dir. */
export function localServerRoot(panelDataDir: string, id: string): string {
  return path.join(panelDataDir, "node", "servers", id);
}
