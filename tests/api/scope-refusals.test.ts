import { beforeAll, describe, expect, it } from "vitest";
import type { DeclaredRoute } from "../../server/api/pipeline/guard.ts";
import { serverScopes } from "../../server/contract/scopes.ts";
import { isServerScope } from "../../server/panel/scopes.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import type { PanelClient as Client } from "../support/http-client.ts";
import { setGlobalScopes, setServerScopes } from "../support/panel-db.ts";
import { declaredAppRoutes } from "../support/scratch-app.ts";
import { adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * Every route that needs a server scope refuses a user who holds every other
 * server scope on that server but not that one — found from the app's own
 * route table, so a route added later is covered without touching this file.
 */
/** A concrete URL for a route pattern: the server's id, and a harmless value for other params. */
function concrete(route: DeclaredRoute, serverId: string): string {
  return route.url
    .replace(`:${route.serverParam}`, serverId)
    .replace(/:[A-Za-z]+/g, "x")
    .replace(/\*$/, "x");
}

const allRoutes = await declaredAppRoutes();
const routes = allRoutes.filter(
  (r) => typeof r.access === "string" && isServerScope(r.access) && r.url.includes(`:${r.serverParam}`),
);

const bodyFor = (route: DeclaredRoute) => (["GET", "HEAD"].includes(route.method) ? {} : { json: {} });

describe("server routes refuse a missing scope", () => {
  const panel = usePanel();
  const serverId = "5c09e5aa";
  const user = newUser("scopeless");
  let client: Client;

  beforeAll(async () => {
    const admin = await adminClient(panel());
    const created = await admin.put(`/api/servers/${serverId}`, { ...echoDefinition(), node: 0 });
    expect(created.status, created.text).toBe(200);
    client = await registeredClient(panel(), user);
  });

  it("finds the server routes (the table is not empty)", () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.map((r) => r.access)).toContain("server.start");
  });

  const byScope = new Map<string, DeclaredRoute[]>();
  for (const route of routes)
    byScope.set(route.access as string, [...(byScope.get(route.access as string) ?? []), route]);
  it.each([...byScope.keys()])("without %s, every route that needs it answers 403", async (scope) => {
    const others = serverScopes.filter((s) => s !== scope && s !== "server.admin");
    await setServerScopes(panel(), user.email, serverId, others);
    for (const route of byScope.get(scope) ?? []) {
      const res = await client.call(route.method, concrete(route, serverId), bodyFor(route));
      // A HEAD answer has no body to carry the envelope.
      if (route.method === "HEAD") expect(res.status, `HEAD ${route.url}`).toBe(403);
      else expectError(res, 403, "ErrMissingScope", { scope });
    }
  });

  it("a user with no scopes on the server is refused every server route", async () => {
    const stranger = await registeredClient(panel(), newUser("stranger"));
    for (const route of routes) {
      const res = await stranger.call(route.method, concrete(route, serverId), bodyFor(route));
      expect(res.status, `${route.method} ${route.url}: ${res.text}`).toBe(403);
    }
  });
});

describe("every route but the public ones needs login (issue 22, point 9)", () => {
  const panel = usePanel();
  const serverId = "6d1af0bb";

  beforeAll(async () => {
    const admin = await adminClient(panel());
    const created = await admin.put(`/api/servers/${serverId}`, { ...echoDefinition(), node: 0 });
    expect(created.status, created.text).toBe(200);
  });

  it("GET /api/servers refuses a signed-in user whose global scopes were all removed", async () => {
    const user = newUser("stripped");
    const client = await registeredClient(panel(), user);
    expect((await client.get("/api/servers")).status).toBe(200);
    await setGlobalScopes(panel(), user.email, []);
    expectError(await client.get("/api/servers"), 403, "ErrMissingScope", { scope: "login" });
  });

  it("a user without login is refused every guarded route, even with every scope on the server", async () => {
    const user = newUser("nologin");
    const client = await registeredClient(panel(), user);
    await setServerScopes(panel(), user.email, serverId, [...serverScopes]);
    expect((await client.get(`/api/servers/${serverId}`)).status).toBe(200);
    await setGlobalScopes(panel(), user.email, [
      "self.edit",
      "self.clients",
      "server.create",
      "templates.view",
    ]);
    const guarded = allRoutes.filter((r) => r.access !== "public");
    expect(guarded.length).toBeGreaterThan(40);
    for (const route of guarded) {
      const res = await client.call(route.method, concrete(route, serverId), bodyFor(route));
      if (route.method === "HEAD") expect(res.status, `HEAD ${route.url}`).toBe(403);
      else expectError(res, 403, "ErrMissingScope", { scope: "login" });
    }
  });

  it("a server-bound OAuth client lists its server while its owner holds login, and not after", async () => {
    const owner = newUser("boundowner");
    const ownerApi = await registeredClient(panel(), owner);
    await setServerScopes(panel(), owner.email, serverId, ["server.view", "server.clients.create"]);
    const made = await ownerApi.post(`/api/servers/${serverId}/oauth2`, {
      name: "bot",
      scopes: ["server.view"],
    });
    expect(made.status, made.text).toBe(200);
    const token = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
      form: {
        grant_type: "client_credentials",
        client_id: made.body.client_id,
        client_secret: made.body.client_secret,
      },
    });
    expect(token.status, token.text).toBe(200);
    const bearer = { bearer: token.body.access_token as string };
    const listed = await ownerApi.get("/api/servers", bearer);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.servers.map((s: { id: string }) => s.id)).toEqual([serverId]);
    await setGlobalScopes(panel(), owner.email, ["self.edit"]);
    expectError(await ownerApi.get("/api/servers", bearer), 403, "ErrMissingScope", { scope: "login" });
    expectError(await ownerApi.get(`/api/servers/${serverId}`, bearer), 403, "ErrMissingScope", {
      scope: "login",
    });
  });
});
