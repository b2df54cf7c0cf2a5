import { beforeAll, describe, expect, it } from "vitest";
import { expectError, newUser } from "../support/expect-api.ts";
import type { PanelClient as Client } from "../support/http-client.ts";
import { expireSessions, setGlobalScopes } from "../support/panel-db.ts";
import { admin, adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

type Route = [method: string, path: string, body?: unknown];

/** Every guarded route of the foundation, with a body an admin may send. */
const settingsRoutes: Route[] = [
  ["GET", "/api/settings/panel.settings.companyName"],
  ["PUT", "/api/settings/panel.settings.companyName", { value: "Outpost" }],
  ["POST", "/api/settings", { "panel.settings.companyName": "Outpost" }],
];
const signedInRoutes: Route[] = [
  ["POST", "/auth/reauth"],
  ["GET", "/api/self"],
  ["PUT", "/api/self", { password: "placeholder" }],
  ["GET", "/api/userSettings"],
  ["PUT", "/api/userSettings/theme", { value: "dark" }],
];
const guarded = [...signedInRoutes, ...settingsRoutes];

describe("who may call what", () => {
  const panel = usePanel();
  const user = newUser("plain");
  let anonymous: Client;
  let plain: Client;
  let api: Client;
  beforeAll(async () => {
    anonymous = new PanelClient(panel().url);
    await anonymous.prime();
    plain = await registeredClient(panel(), user);
    api = await adminClient(panel());
  });
  const body = (route: Route, password: string) =>
    route[1] === "/api/self" && route[0] === "PUT" ? { password } : route[2];

  it.each(guarded)(
    "anonymous %s %s → 401 with the envelope and WWW-Authenticate",
    async (method, path, json) => {
      const res = await anonymous.call(method, path, { json });
      expectError(res, 401, "ErrTokenInvalid");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    },
  );

  it.each(guarded)("a malformed Authorization header on %s %s → 401", async (method, path, json) => {
    for (const authorization of ["Bearer", "Bearer a b", "Token abc", "bearer"]) {
      const res = await anonymous.call(method, path, { json, headers: { authorization } });
      expectError(res, 401, "ErrTokenInvalid");
    }
  });

  it.each(guarded)("an unknown bearer token on %s %s → 401", async (method, path, json) => {
    expectError(
      await anonymous.call(method, path, { json, bearer: "unknown-token" }),
      401,
      "ErrTokenInvalid",
    );
  });

  it.each(settingsRoutes)(
    "a registered user on %s %s → 403 ErrMissingScope settings.edit",
    async (method, path, json) => {
      const res = await plain.call(method, path, { json });
      expectError(res, 403, "ErrMissingScope", { scope: "settings.edit" });
    },
  );

  it.each(signedInRoutes)("a registered user on %s %s → allowed", async (...route) => {
    const res = await plain.call(route[0], route[1], { json: body(route, user.password) });
    expect(res.status, res.text).toBeLessThan(300);
  });

  it.each(guarded)("the admin on %s %s → allowed", async (...route) => {
    const res = await api.call(route[0], route[1], { json: body(route, admin.password) });
    expect(res.status, res.text).toBeLessThan(300);
  });

  it.each([
    ["POST", "/auth/login", { email: "nobody@example.com", password: "x" }, 400],
    ["POST", "/auth/otp", { token: "123456" }, 400],
    ["POST", "/auth/register", newUser("anon"), 200],
    ["POST", "/auth/logout", undefined, 204],
    ["GET", "/api/config", undefined, 200],
  ])("%s %s is public", async (method, path, json, status) => {
    const res = await new PanelClient(panel().url).call(method, path, { json });
    expect(res.status, res.text).toBe(status);
  });

  it("POST /oauth2/token is public (answers in the OAuth2 shape, not 401)", async () => {
    const res = await anonymous.call("POST", "/oauth2/token", { form: { grant_type: "client_credentials" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });

  it("an expired session is 401", async () => {
    const other = newUser("expired");
    const client = await registeredClient(panel(), other);
    await expireSessions(panel(), other.email, "session");
    expectError(await client.get("/api/self"), 401, "ErrTokenInvalid");
  });

  it("losing a scope takes effect on the next call", async () => {
    const other = newUser("demoted");
    const client = await registeredClient(panel(), other);
    await setGlobalScopes(panel(), other.email, ["self.edit"]);
    expectError(await client.get("/api/self"), 403, "ErrMissingScope", { scope: "login" });
    await setGlobalScopes(panel(), other.email, ["login", "settings.edit"]);
    expect((await client.get("/api/settings/panel.settings.companyName")).status).toBe(200);
    expectError(await client.put("/api/self", { password: other.password }), 403, "ErrMissingScope", {
      scope: "self.edit",
    });
  });
});
