import { beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-api.ts";
import type { PanelClient as Client } from "../support/http-client.ts";
import { createOAuthClient } from "../support/panel-db.ts";
import { admin, adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

describe("XSRF protection of cookie-authenticated calls", () => {
  const panel = usePanel();
  let api: Client;
  beforeAll(async () => {
    api = await adminClient(panel());
  });
  const companyName = async () => (await api.get("/api/settings/panel.settings.companyName")).body.value;

  const unsafeCalls: [string, string, unknown][] = [
    ["PUT", "/api/settings/panel.settings.companyName", { value: "Forged" }],
    ["POST", "/api/settings", { "panel.settings.companyName": "Forged" }],
    ["PUT", "/api/self", { password: admin.password, username: "forged-name" }],
    ["PUT", "/api/userSettings/theme", { value: "forged" }],
    ["POST", "/auth/reauth", undefined],
    ["POST", "/auth/logout", undefined],
    ["DELETE", "/api/nodes/12345", undefined],
  ];

  it.each(unsafeCalls)("refuses %s %s without the X-XSRF-TOKEN header", async (method, path, json) => {
    const res = await api.call(method, path, { json, xsrf: false });
    expectError(res, 403, "ErrXsrfTokenInvalid");
  });

  it.each(unsafeCalls)("refuses %s %s with a wrong X-XSRF-TOKEN header", async (method, path, json) => {
    const wrong = `${api.cookies.get("XSRF-TOKEN")}x`;
    const res = await api.call(method, path, { json, xsrf: false, headers: { "x-xsrf-token": wrong } });
    expectError(res, 403, "ErrXsrfTokenInvalid");
  });

  it("changed nothing while refusing: the settings, the account and the session are as they were", async () => {
    expect(await companyName()).toBe("Outpost");
    expect((await api.get("/api/self")).body.username).toBe(admin.username);
    expect((await api.get("/api/userSettings")).body).toEqual([]);
  });

  it("refuses a header that matches no cookie (cookie missing)", async () => {
    const token = api.cookies.get("XSRF-TOKEN")!;
    const noCookie = new PanelClient(panel().url);
    noCookie.cookies.set("outpost_auth", api.cookies.get("outpost_auth")!);
    const res = await noCookie.call("POST", "/api/settings", {
      json: { "panel.settings.companyName": "Forged" },
      headers: { "x-xsrf-token": token },
    });
    expectError(res, 403, "ErrXsrfTokenInvalid");
  });

  it("accepts the call when the header echoes the cookie", async () => {
    expect((await api.put("/api/userSettings/theme", { value: "dark" })).status).toBe(204);
  });

  it("exempts bearer calls: no cookie, no header needed", async () => {
    const { clientId, secret } = await createOAuthClient(panel(), admin.email);
    const raw = new PanelClient(panel().url);
    const token = await raw.call("POST", "/oauth2/token", {
      form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
    });
    const bearer = token.body.access_token;
    const res = await raw.call("PUT", "/api/userSettings/locale", { json: { value: "de_DE" }, bearer });
    expect(res.status).toBe(204);
    expect(raw.cookies.has("outpost_auth")).toBe(false);
  });

  it("does not let a bogus Authorization header stand in for the token while riding on the cookie", async () => {
    for (const authorization of ["Bearer not-a-session", "Basic YWRtaW46eA=="]) {
      const res = await api.call("PUT", "/api/settings/panel.settings.companyName", {
        json: { value: "Forged" },
        xsrf: false,
        headers: { authorization },
      });
      expectError(res, 401, "ErrTokenInvalid");
    }
    expect(await companyName()).toBe("Outpost");
  });

  it("leaves sign-in itself open to anonymous callers without the header", async () => {
    const fresh = new PanelClient(panel().url);
    const res = await fresh.call("POST", "/auth/login", {
      json: { email: admin.email, password: admin.password },
    });
    expect(res.status).toBe(200);
  });
});

describe("login CSRF: /auth/ takes JSON from this panel's own pages (issue 13 #13)", () => {
  const panel = usePanel();
  const credentials = { email: admin.email, password: admin.password };
  const host = () => new URL(panel().url).host;

  it("refuses a form-encoded or text sign-in, as a page on another site could send it", async () => {
    for (const origin of [undefined, "https://evil.example"]) {
      const headers = origin ? { origin } : undefined;
      const form = await new PanelClient(panel().url).call("POST", "/auth/login", {
        form: credentials,
        headers,
      });
      expect(form.status, form.text).toBe(origin ? 403 : 415);
      expect(form.setCookies.some((c) => c.startsWith("outpost_auth="))).toBe(false);
      const text = await new PanelClient(panel().url).call("POST", "/auth/login", {
        raw: JSON.stringify(credentials),
        headers: { "content-type": "text/plain", ...headers },
      });
      expect(text.status, text.text).toBe(origin ? 403 : 415);
      expect(text.setCookies.some((c) => c.startsWith("outpost_auth="))).toBe(false);
    }
    const form = await new PanelClient(panel().url).call("POST", "/auth/login", { form: credentials });
    expectError(form, 415, "ErrUnsupportedMediaType");
  });

  it("refuses JSON to every /auth/ call from another origin, and takes it from its own or from no browser", async () => {
    for (const path of ["/auth/login", "/auth/register", "/auth/invite", "/auth/otp", "/auth/logout"]) {
      for (const origin of ["https://evil.example", "null", `http://${host()}.evil.example`]) {
        const res = await new PanelClient(panel().url).call("POST", path, {
          json: credentials,
          headers: { origin },
        });
        expectError(res, 403, "ErrCrossOrigin");
      }
    }
    const own = await new PanelClient(panel().url).call("POST", "/auth/login", {
      json: credentials,
      headers: { origin: panel().url },
    });
    expect(own.status, own.text).toBe(200);
    // A client that is no browser sends no Origin.
    expect((await new PanelClient(panel().url).login(admin.email, admin.password)).status).toBe(200);
  });
});
