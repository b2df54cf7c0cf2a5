import type { FastifyInstance, RouteOptions } from "fastify";
import { productVersion } from "../../version.ts";

/**
 * The API's OpenAPI 3.1 description, made from the routes as they are
 * registered: their access rule and the same TypeBox schemas (JSON Schema)
 * that Fastify validates with. Nothing is written twice, so the document
 * cannot drift from what the routes accept.
 */

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  url: string;
  access: string;
  schema: Json;
}

const documented = new WeakMap<FastifyInstance, Operation[]>();

/** Prefixes the description covers: the API, sign-in and OAuth2 (the web app and daemon paths are not API). */
const describedPrefixes = ["/api/", "/auth/", "/oauth2/"];

/** Starts collecting routes; call before any route is added. */
export function collectOpenApi(app: FastifyInstance): void {
  const operations: Operation[] = [];
  documented.set(app, operations);
  app.addHook("onRoute", (route: RouteOptions) => {
    if (!describedPrefixes.some((p) => route.url.startsWith(p))) return;
    const access = (route.config as { access?: string } | undefined)?.access;
    // Fastify adds HEAD beside each GET (with the GET's config); it is the GET without a body, not
    // an operation of its own: left out of the document below, where every GET is known.
    for (const method of [route.method].flat()) {
      operations.push({
        method: method.toLowerCase(),
        url: route.url,
        access: access ?? "public",
        // The route's own schema, made plain JSON only when the document is first asked for: a copy
        // of every route's schemas held from start was 0.1-0.2 MiB of the idle panel's heap.
        schema: (route.schema ?? {}) as Json,
      });
    }
  });
}

/** TypeBox schemas carry symbols and compiled parts; the document wants plain JSON Schema. */
function plain(value: Json): Json {
  return JSON.parse(JSON.stringify(value));
}

/** `/api/servers/:id/file/*` → `/api/servers/{id}/file/{path}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{path}");
}

function parameters(schema: Json, where: "path" | "query", url: string): Json[] {
  const source = (where === "path" ? schema.params : schema.querystring) as Json | undefined;
  const properties = (source?.properties ?? {}) as Record<string, Json>;
  const required = new Set((source?.required as string[] | undefined) ?? []);
  const out: Json[] = Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: property,
  }));
  if (where === "path") {
    // Path parameters no schema names (and the wildcard) are strings.
    for (const name of [...openApiPath(url).matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
      if (!(name in properties)) out.push({ name, in: "path", required: true, schema: { type: "string" } });
    }
  }
  return out;
}

function responses(schema: Json): Json {
  const declared = (schema.response ?? {}) as Record<string, Json>;
  const out: Json = {};
  for (const [status, body] of Object.entries(declared)) {
    out[status] = { description: `HTTP ${status}`, content: { "application/json": { schema: body } } };
  }
  if (!Object.keys(out).some((status) => status.startsWith("2"))) out["2XX"] = { description: "Success" };
  out.default = {
    description: "An error, in the error envelope",
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
  };
  return out;
}

function security(access: string): Json {
  if (access === "public") return { security: [] };
  const scope =
    access === "authenticated" || access === "login"
      ? "a signed-in caller holding `login`"
      : `scope \`${access}\` and \`login\``;
  return {
    security: [{ session: [] }, { bearer: [] }],
    "x-outpost-access": access,
    description: `Needs ${scope}.`,
  };
}

export function openApiDocument(app: FastifyInstance, sessionCookie: string): Json {
  const paths: Record<string, Json> = {};
  const operations = documented.get(app) ?? [];
  const gets = new Set(operations.filter((op) => op.method === "get").map((op) => op.url));
  for (const { schema, ...op } of operations) {
    if (op.method === "head" && gets.has(op.url)) continue;
    const opSchema = plain(schema);
    const key = openApiPath(op.url);
    paths[key] ??= {};
    const entry = paths[key];
    const params = [...parameters(opSchema, "path", op.url), ...parameters(opSchema, "query", op.url)];
    entry[op.method] = {
      operationId: `${op.method}${openApiPath(op.url)
        .replace(/[{}]/g, "")
        .replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ? c.toUpperCase() : ""))}`,
      tags: [op.url.split("/")[op.url.startsWith("/api/") ? 2 : 1]],
      ...security(op.access),
      ...(params.length ? { parameters: params } : {}),
      ...(opSchema.body
        ? { requestBody: { required: true, content: { "application/json": { schema: opSchema.body } } } }
        : {}),
      responses: responses(opSchema),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Outpost API",
      version: productVersion,
      description:
        "The panel's HTTP API, compatible with PufferPanel v3's. Errors come as " +
        '{"error":{"code","msg","metadata"}}. Browser sessions send the XSRF cookie back in the ' +
        "X-XSRF-TOKEN header on writes; bearer tokens (from /oauth2/token) need none.",
    },
    paths,
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: sessionCookie },
        bearer: { type: "http", scheme: "bearer" },
      },
      schemas: {
        ErrorEnvelope: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "msg"],
              properties: {
                code: { type: "string" },
                msg: { type: "string" },
                metadata: { type: "object" },
              },
            },
          },
        },
      },
    },
  };
}
