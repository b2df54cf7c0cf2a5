import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-api.ts";
import { adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

const indexHtml =
  '<!doctype html><html><head><title>Outpost</title></head><body><div id="app"></div></body></html>';
const bigScript = `export const words = ${JSON.stringify("lorem ipsum dolor sit amet ".repeat(200))};\n`;
const smallScript = "export const x = 1;\n";

describe("the web app on the panel's origin", () => {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-web-"));
  fs.mkdirSync(path.join(webDir, "assets"));
  fs.writeFileSync(path.join(webDir, "index.html"), indexHtml);
  fs.writeFileSync(path.join(webDir, "assets", "app-abc123.js"), bigScript);
  fs.writeFileSync(path.join(webDir, "assets", "tiny-def456.js"), smallScript);
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));
  const panel = usePanel({ webDir });
  const get = (url: string, headers?: Record<string, string>) =>
    new PanelClient(panel().url).get(url, { headers });

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
