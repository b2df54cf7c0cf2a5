import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredRoutes } from "../../server/api/pipeline/guard.ts";
import { openApiPath } from "../../server/api/pipeline/openapi.ts";
import { openScratchApp } from "../support/scratch-app.ts";

type Json = Record<string, any>;

describe("GET /api/openapi.json", () => {
  let app: FastifyInstance;
  let close: (() => Promise<void>) | undefined;
  let document: Json;

  beforeAll(async () => {
    ({ app, close } = await openScratchApp());
    const answer = await app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(answer.statusCode).toBe(200);
    document = answer.json();
  });
  afterAll(async () => {
    await close?.();
  });

  it("describes every route the panel registered, with its method", () => {
    const routes = declaredRoutes(app);
    expect(routes.length).toBeGreaterThan(50);
    const gets = new Set(routes.filter((r) => r.method === "GET").map((r) => r.url));
    const missing = routes
      // A HEAD beside a GET is that GET (checked below).
      .filter((r) => !(r.method === "HEAD" && gets.has(r.url)))
      .filter((r) => !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it("has no HEAD row beside a GET: Fastify's HEAD is the GET without a body", () => {
    const heads = Object.entries(document.paths as Record<string, Json>)
      .filter(([, ops]) => ops.head)
      .map(([url]) => url);
    expect(heads).toEqual([]);
    expect(document.paths["/api/servers"].get).toBeDefined();
  });

  it("takes parameters, bodies, answers and access from the routes' own schemas", () => {
    expect(document.openapi).toBe("3.1.0");
    const getServer = document.paths["/api/servers/{id}"].get;
    expect(getServer.parameters).toContainEqual(
      expect.objectContaining({ name: "id", in: "path", required: true }),
    );
    expect(getServer["x-outpost-access"]).toBe("server.view");
    const addRepo = document.paths["/api/templates"].post;
    expect(addRepo.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["name", "url"]),
    );
    expect(addRepo.responses["200"].content["application/json"].schema.properties).toHaveProperty("isLocal");
    expect(document.paths["/api/config"].get.security).toEqual([]);
    expect(document.paths["/api/servers/{id}/file/{path}"].get.parameters).toContainEqual(
      expect.objectContaining({ name: "path", in: "path" }),
    );
    // Every operation can be told apart.
    const ids = Object.values(document.paths as Record<string, Json>).flatMap((ops) =>
      Object.values(ops).map((op: Json) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("has a reference page at /api/docs whose files come only from the renderer's package", async () => {
    const docs = await app.inject({ method: "GET", url: "/api/docs" });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers["content-type"]).toMatch(/^text\/html/);
    for (const asset of [
      "/api/docs/swagger-ui.css",
      "/api/docs/swagger-ui-bundle.js",
      "/api/docs/start.js",
    ]) {
      expect(docs.body).toContain(asset);
      const answer = await app.inject({ method: "GET", url: asset });
      expect(answer.statusCode, asset).toBe(200);
      expect(answer.headers["cache-control"]).toBe("public, max-age=86400");
    }
    expect((await app.inject({ method: "GET", url: "/api/docs/start.js" })).body).toContain(
      "/api/openapi.json",
    );
    for (const other of [
      "/api/docs/package.json",
      "/api/docs/..%2F..%2Fpackage.json",
      "/api/docs/index.html",
    ]) {
      expect((await app.inject({ method: "GET", url: other })).statusCode, other).toBe(404);
    }
    // Every other API answer stays uncached.
    expect((await app.inject({ method: "GET", url: "/api/openapi.json" })).headers["cache-control"]).toBe(
      "no-store",
    );
  });
});
