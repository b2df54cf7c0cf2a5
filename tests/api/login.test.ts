import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cookieValue, expectError, newUser, setCookie } from "../support/expect-api.ts";
import { setGlobalScopes, storedSecrets } from "../support/panel-db.ts";
import { admin, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("POST /auth/login", () => {
  const panel = usePanel();

  it("hands out a readable XSRF-TOKEN cookie on the first request", async () => {
    const res = await new PanelClient(panel().url).get("/api/config");
    const xsrf = setCookie(res, "XSRF-TOKEN");
    expect(cookieValue(xsrf)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(xsrf).not.toMatch(/HttpOnly/i);
    expect(xsrf).toMatch(/Path=\//);
    expect(xsrf).toMatch(/SameSite=Strict/i);
  });

  it("sets the session cookie HttpOnly, SameSite=Strict, Path=/, not Secure over http, for an hour", async () => {
    const client = new PanelClient(panel().url);
    const before = Date.now();
    const res = await client.login(admin.email, admin.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ scopes: ["admin"] });
    const auth = setCookie(res, "outpost_auth");
    expect(cookieValue(auth)).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(auth).toMatch(/HttpOnly/i);
    expect(auth).toMatch(/SameSite=Strict/i);
    expect(auth).toMatch(/Path=\/(;|$)/);
    expect(auth).not.toMatch(/Secure/i);
    expect(auth).toMatch(/Max-Age=(3600|3599)\b/);

    const expires = setCookie(res, "outpost_auth_expires");
    expect(expires).not.toMatch(/HttpOnly/i);
    expect(expires).toMatch(/SameSite=Strict/i);
    const expiresAt = Number(cookieValue(expires));
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
  });

  it("stores the session token only as its SHA-256, and the password only as an argon2id hash", async () => {
    const user = newUser("stored");
    const client = await registeredClient(panel(), user);
    const token = client.cookies.get("outpost_auth")!;
    const { sessions, passwordHash } = await storedSecrets(panel(), user.email);
    expect(sessions).toEqual([createHash("sha256").update(token).digest("hex")]);
    expect(passwordHash).toMatch(/^\$argon2id\$/);
    expect(passwordHash).not.toContain(user.password);
  });

  it("signs in by e-mail regardless of its case and surrounding spaces", async () => {
    const res = await new PanelClient(panel().url).login(" ADMIN@Example.COM ", admin.password);
    expect(res.status).toBe(200);
  });

  it("answers a wrong password and an unknown e-mail alike, without cookies", async () => {
    const client = new PanelClient(panel().url);
    await client.prime();
    const wrong = await client.post("/auth/login", { email: admin.email, password: "not-the-password" });
    const unknown = await client.post("/auth/login", { email: "nobody@example.com", password: "whatever1" });
    expectError(wrong, 400, "ErrInvalidCredentials");
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.text).toBe(wrong.text);
    expect(setCookie(wrong, "outpost_auth")).toBeUndefined();
    expect(client.cookies.has("outpost_auth")).toBe(false);
  });

  it("refuses a user whose global scopes lack login with 403 ErrLoginNotPermitted", async () => {
    const user = newUser("nologin");
    await registeredClient(panel(), user);
    await setGlobalScopes(panel(), user.email, ["self.edit"]);
    const client = new PanelClient(panel().url);
    const res = await client.login(user.email, user.password);
    expectError(res, 403, "ErrLoginNotPermitted");
    expect(client.cookies.has("outpost_auth")).toBe(false);
  });
});

describe("sign-in behind a TLS-terminating proxy", () => {
  const panel = usePanel({ env: { OUTPOST_TRUST_PROXY: "true" } });

  it("marks every cookie Secure when the request came over https", async () => {
    const client = new PanelClient(panel().url);
    const res = await client.call("POST", "/auth/login", {
      json: { email: admin.email, password: admin.password },
      headers: { "x-forwarded-proto": "https" },
    });
    expect(res.status).toBe(200);
    for (const name of ["outpost_auth", "outpost_auth_expires", "XSRF-TOKEN"]) {
      expect(setCookie(res, name), name).toMatch(/;\s*Secure/i);
    }
  });
});

describe("sign-in on a panel whose public URL is https", () => {
  const panel = usePanel({ env: { OUTPOST_PUBLIC_URL: "https://panel.example.com" } });

  it("marks every cookie Secure even when the proxy in front does not say so", async () => {
    const res = await new PanelClient(panel().url).login(admin.email, admin.password);
    expect(res.status).toBe(200);
    for (const name of ["outpost_auth", "outpost_auth_expires"]) {
      expect(setCookie(res, name), name).toMatch(/;\s*Secure/i);
    }
  });
});
