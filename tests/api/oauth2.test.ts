import { beforeAll, describe, expect, it } from "vitest";
import { expectError, expectNoInternals, newUser } from "../support/expect-api.ts";
import { createOAuthClient, setGlobalScopes } from "../support/panel-db.ts";
import { admin, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("POST /oauth2/token (client_credentials)", () => {
  const panel = usePanel();
  let client: { clientId: string; secret: string };
  const token = (form: Record<string, string>, headers?: Record<string, string>) =>
    new PanelClient(panel().url).call("POST", "/oauth2/token", { form, headers });
  const credentials = () => ({
    grant_type: "client_credentials",
    client_id: client.clientId,
    client_secret: client.secret,
  });
  beforeAll(async () => {
    client = await createOAuthClient(panel(), admin.email);
  });

  it("answers a one-hour bearer token with the owner's scopes, not to be cached", async () => {
    const res = await token(credentials());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/),
      token_type: "Bearer",
      expires_in: 3600,
      scope: "admin",
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.setCookies).toEqual([expect.stringMatching(/^XSRF-TOKEN=/)]);
  });

  it("the token works as a bearer on /api calls", async () => {
    const { access_token } = (await token(credentials())).body;
    const api = new PanelClient(panel().url);
    const self = await api.get("/api/self", { bearer: access_token });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ email: admin.email, username: admin.username });
    const setting = await api.get("/api/settings/panel.settings.companyName", { bearer: access_token });
    expect(setting.body).toEqual({ value: "Outpost" });
    const reauth = await api.post("/auth/reauth", undefined, { bearer: access_token });
    expect(reauth.body).toEqual({ scopes: ["admin"] });
  });

  it("keeps at most 50 live tokens a client: asking for more ends the oldest (issue 13: the sessions table grew without bound)", async () => {
    const own = await createOAuthClient(panel(), admin.email);
    const ask = async () =>
      (await token({ grant_type: "client_credentials", client_id: own.clientId, client_secret: own.secret }))
        .body.access_token as string;
    const issued: string[] = [];
    for (let i = 0; i < 51; i++) {
      issued.push(await ask());
      // Issue times are kept in milliseconds: apart, so "oldest" is one token (a clock step, not a readiness wait).
      await new Promise((r) => setTimeout(r, 2));
    }
    const self = (bearer: string) => new PanelClient(panel().url).get("/api/self", { bearer });
    expectError(await self(issued[0]), 401, "ErrTokenInvalid");
    for (const bearer of [issued[1], issued[50]]) expect((await self(bearer)).status).toBe(200);
    // Another client's tokens are its own business.
    const { access_token } = (await token(credentials())).body;
    expect((await self(access_token)).status).toBe(200);
  });

  it("accepts the credentials as HTTP Basic auth", async () => {
    const basic = Buffer.from(`${client.clientId}:${client.secret}`).toString("base64");
    const res = await token({ grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("Bearer");
  });

  it("gives a plain user's client that user's scopes and no more", async () => {
    const user = newUser("oauth");
    await registeredClient(panel(), user);
    const own = await createOAuthClient(panel(), user.email);
    const res = await token({
      grant_type: "client_credentials",
      client_id: own.clientId,
      client_secret: own.secret,
    });
    expect(res.body.scope).toBe("login self.edit self.clients");
    const api = new PanelClient(panel().url);
    const bearer = res.body.access_token;
    expect((await api.get("/api/self", { bearer })).body.email).toBe(user.email);
    expectError(
      await api.get("/api/settings/panel.settings.companyName", { bearer }),
      403,
      "ErrMissingScope",
    );
  });

  it.each([
    ["a wrong secret", () => ({ ...credentials(), client_secret: `${client.secret}x` })],
    ["an unknown client", () => ({ ...credentials(), client_id: "00000000-0000-4000-8000-000000000000" })],
  ])("refuses %s with 401 invalid_client", async (_, form) => {
    const res = await token(form());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid_client" });
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("refuses wrong Basic credentials with 401 invalid_client", async () => {
    const basic = Buffer.from(`${client.clientId}:wrong`).toString("base64");
    const res = await token({ grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid_client" });
  });

  it("refuses another grant type with 400 unsupported_grant_type", async () => {
    // (grant_type=password is taken, for nodes' SFTP sign-ins: tests/api/sftp.test.ts.)
    const res = await token({ ...credentials(), grant_type: "authorization_code" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unsupported_grant_type" });
  });

  it.each([
    ["grant_type", { client_id: "x", client_secret: "y" }],
    ["client_id", { grant_type: "client_credentials", client_secret: "y" }],
    ["client_secret", { grant_type: "client_credentials", client_id: "x" }],
  ])("refuses a request without %s with 400 invalid_request", async (_, form) => {
    const res = await token(form);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(Object.keys(res.body).sort()).toEqual(["error", "error_description"]);
    expectNoInternals(res);
  });

  it.each([
    ["a broken JSON body", "application/json", "{", 400],
    ["a body of an unknown media type", "application/xml", "<x/>", 415],
    [
      "a NUL in the client id",
      "application/x-www-form-urlencoded",
      "grant_type=client_credentials&client_id=%00&client_secret=x",
      400,
    ],
  ])("answers %s in the OAuth2 error shape", async (_, type, raw, status) => {
    const res = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
      raw,
      headers: { "content-type": type },
    });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: "invalid_request", error_description: expect.any(String) });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectNoInternals(res);
  });

  it("refuses a client whose owner may no longer sign in with 400 unauthorized_client", async () => {
    const user = newUser("nologin");
    await registeredClient(panel(), user);
    const own = await createOAuthClient(panel(), user.email);
    await setGlobalScopes(panel(), user.email, ["self.edit"]);
    const res = await token({
      grant_type: "client_credentials",
      client_id: own.clientId,
      client_secret: own.secret,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unauthorized_client" });
  });

  it("a bearer token stops working once its owner changes the password", async () => {
    const user = newUser("revoke");
    const browser = await registeredClient(panel(), user);
    const own = await createOAuthClient(panel(), user.email);
    const res = await token({
      grant_type: "client_credentials",
      client_id: own.clientId,
      client_secret: own.secret,
    });
    const bearer = res.body.access_token;
    await browser.put("/api/self", { password: user.password, newPassword: "changed-password" });
    expectError(await new PanelClient(panel().url).get("/api/self", { bearer }), 401, "ErrTokenInvalid");
  });
});
