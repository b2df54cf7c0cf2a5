import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-api.ts";
import { adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

const indexHtml =
  '<!doctype html><html><head><title>Outpost</title></head><body><div id="app"></div></body></html>';
const bigScript = `export const words = ${JSON.stringify("lorem ipsum dolor sit amet ".repeat(200))};\n`;
const smallScript = "export const x = 1;\n";

describe("the web app on the panel's origin", () => {
  // A file beside the web app, which no request may reach.
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-web-"));
  fs.writeFileSync(path.join(outside, "secret.txt"), "not for the web");
  const webDir = path.join(outside, "web");
  fs.mkdirSync(path.join(webDir, "assets"), { recursive: true });
  fs.mkdirSync(path.join(webDir, ".vite"));
  fs.writeFileSync(path.join(webDir, ".vite", "manifest.json"), "{}");
  fs.writeFileSync(path.join(webDir, "index.html"), indexHtml);
  fs.writeFileSync(path.join(webDir, "assets", "app-abc123.js"), bigScript);
  fs.writeFileSync(path.join(webDir, "assets", "tiny-def456.js"), smallScript);
  afterAll(() => fs.rmSync(outside, { recursive: true, force: true }));
  const panel = usePanel({ webDir });
  const get = (url: string, headers?: Record<string, string>) =>
    new PanelClient(panel().url).get(url, { headers });
  // The path goes on the wire as written (fetch would resolve `..`), and the body as it came.
  const raw = (rawPath: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const { hostname, port } = new URL(panel().url);
      http
        .request({ host: hostname, port, path: rawPath, method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on("error", reject)
        .end();
    });

  it.each(["/", "/some/client/route", "/servers/view/abc123", "/auth/login", "/auth/invite?token=x"])(
    "GET %s answers index.html, revalidated on every load",
    async (url) => {
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.text).toBe(indexHtml);
    },
  );

  it("GET /index.html is not cached for long either", async () => {
    const res = await get("/index.html");
    expect(res.text).toBe(indexHtml);
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("serves hashed assets with a year-long immutable cache", async () => {
    const res = await get("/assets/app-abc123.js", { "accept-encoding": "identity" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.text).toBe(bigScript);
  });

  it.each(["gzip", "br"])("compresses an asset over 1 KiB with %s when asked", async (encoding) => {
    const res = await get("/assets/app-abc123.js", { "accept-encoding": encoding });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe(encoding);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.text).toBe(bigScript);
  });

  it("sends the compressed bytes of the very file, with Vary, and as they are to a client that asks so", async () => {
    const decode = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const encoding of ["br", "gzip"] as const) {
      const res = await raw("/assets/app-abc123.js", { "accept-encoding": encoding });
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(res.headers.vary).toBe("accept-encoding");
      expect(res.body.length).toBeLessThan(bigScript.length);
      expect(decode[encoding](res.body).toString()).toBe(bigScript);
    }
    const plain = await raw("/assets/app-abc123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    expect(plain.headers["content-length"]).toBe(String(bigScript.length));
    expect(plain.body.toString()).toBe(bigScript);
  });

  it("revalidates with ETag and Last-Modified: 304 without a body", async () => {
    const first = await raw("/index.html");
    const etag = first.headers.etag ?? "";
    const lastModified = first.headers["last-modified"] ?? "";
    expect(etag).toMatch(/^W\/".+"$/);
    const conditionals: Record<string, string>[] = [
      { "if-none-match": etag },
      { "if-modified-since": lastModified },
    ];
    for (const conditional of conditionals) {
      const again = await raw("/index.html", conditional);
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    }
    // So does index.html under a client route's name.
    expect((await raw("/servers", { "if-none-match": etag })).status).toBe(304);
    expect((await raw("/index.html", { "if-none-match": 'W/"other"' })).status).toBe(200);
  });

  it("answers a byte range as it is, never compressed, and HEAD with the headers alone", async () => {
    const part = await raw("/assets/app-abc123.js", { range: "bytes=0-99", "accept-encoding": "br, gzip" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 0-99/${bigScript.length}`);
    expect(part.headers["content-encoding"]).toBeUndefined();
    expect(part.body.toString()).toBe(bigScript.slice(0, 100));
    const past = await raw("/assets/app-abc123.js", { range: `bytes=${bigScript.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers["content-range"]).toBe(`bytes */${bigScript.length}`);

    const head = await raw("/assets/app-abc123.js", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(bigScript.length));
    expect(head.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(head.body.length).toBe(0);
  });

  it("never serves a file outside the web app, nor a hidden one", async () => {
    for (const url of [
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/assets/%2e%2e%5c%2e%2e%5csecret.txt",
      "/.vite/manifest.json",
      "/%2evite/manifest.json",
      "/index.html%00.js",
    ]) {
      const res = await raw(url);
      // A NUL is refused before any route (400).
      expect([400, 404], url).toContain(res.status);
      expect(res.body.toString(), url).not.toContain("not for the web");
      expect(res.body.toString(), url).not.toContain("<html");
    }
  });

  it("leaves a small asset uncompressed", async () => {
    const res = await get("/assets/tiny-def456.js", { "accept-encoding": "gzip, br" });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.text).toBe(smallScript);
  });

  it("answers a missing asset or a folder with a plain 404, never index.html", async () => {
    for (const url of ["/assets/app-000000.js", "/assets/", "/favicon.ico"]) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(res.text).not.toContain("<html");
    }
  });

  it("answers unknown API paths with 404 ErrNotFound, not the app", async () => {
    for (const url of ["/api/unknown", "/api", "/api/", "/api/self/nothing/here", "/oauth2/unknown"]) {
      expectError(await get(url), 404, "ErrNotFound");
    }
    // Longer than the router's longest parameter: no route matches, and it is still not the app.
    expectError(await get(`/auth/oidc/${"a".repeat(600)}`), 404, "ErrNotFound");
    const client = new PanelClient(panel().url);
    expectError(await client.post("/some/client/route", {}), 404, "ErrNotFound");
    expectError(await client.post("/api/unknown", {}), 404, "ErrNotFound");
  });

  it("treats a trailing slash as the same path", async () => {
    const plain = await get("/api/config");
    const slash = await get("/api/config/");
    expect(slash.status).toBe(200);
    expect(slash.body).toEqual(plain.body);

    const api = await adminClient(panel());
    const saved = await api.post("/api/settings/", { "panel.settings.companyName": "Slash Games" });
    expect(saved.status).toBe(204);
    expect((await api.get("/api/settings/panel.settings.companyName/")).body).toEqual({
      value: "Slash Games",
    });
    expect((await api.get("/api/userSettings/")).status).toBe(200);
  });
});
