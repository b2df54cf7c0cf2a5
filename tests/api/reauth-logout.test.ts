import { describe, expect, it } from "vitest";
import { rotatedSessionGraceMs } from "../../server/panel/sessions.ts";
import { cookieValue, expectError, setCookie } from "../support/expect-api.ts";
import { expireSession, expireSessions, sessionExpiry } from "../support/panel-db.ts";
import { admin, adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

describe("POST /auth/reauth and /auth/logout", () => {
  const panel = usePanel();

  it("reauth issues a fresh session and answers {scopes}; the old one ends after a short grace", async () => {
    const client = await adminClient(panel());
    const oldToken = client.cookies.get("outpost_auth")!;
    const oldExpires = Number(client.cookies.get("outpost_auth_expires"));
    // A later clock, not a readiness wait: the new expiry must be later than the old one.
    await new Promise((r) => setTimeout(r, 20));
    const res = await client.post("/auth/reauth");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ scopes: ["admin"] });
    const newToken = cookieValue(setCookie(res, "outpost_auth"));
    expect(newToken).toBeDefined();
    expect(newToken).not.toBe(oldToken);
    expect(setCookie(res, "outpost_auth")).toMatch(/HttpOnly/i);
    expect(Number(cookieValue(setCookie(res, "outpost_auth_expires")))).toBeGreaterThan(oldExpires);
    expect((await client.get("/api/self")).status).toBe(200);
    // Still good for calls already on their way with it...
    expect((await client.get("/api/self", { bearer: oldToken })).status).toBe(200);
    // ...but no longer than the grace: past it, the old token is refused and cannot reauth.
    const expiresAt = await sessionExpiry(panel(), oldToken);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + rotatedSessionGraceMs);
    expect(rotatedSessionGraceMs).toBeGreaterThanOrEqual(60_000);
    await expireSession(panel(), oldToken);
    expectError(await client.get("/api/self", { bearer: oldToken }), 401, "ErrTokenInvalid");
    const stale = new PanelClient(panel().url);
    stale.cookies.set("outpost_auth", oldToken);
    expect((await stale.call("POST", "/auth/reauth", { xsrf: false, bearer: oldToken })).status).toBe(401);
    expect((await client.get("/api/self")).status).toBe(200);
  });

  it("calls sent with the old cookie while reauth is in flight are not logged out", async () => {
    const client = await adminClient(panel());
    const oldToken = client.cookies.get("outpost_auth")!;
    // A reloading page: reauth and the screen's first calls leave together, all with the old cookie.
    const [reauth, ...calls] = await Promise.all([
      client.post("/auth/reauth"),
      client.get("/api/self"),
      client.get("/api/servers"),
      client.get("/api/nodes"),
    ]);
    expect(reauth.status).toBe(200);
    expect(calls.map((c) => c.status)).toEqual([200, 200, 200]);
    // And once reauth has answered, a late call with the old cookie still succeeds.
    const late = new PanelClient(panel().url);
    late.cookies.set("outpost_auth", oldToken);
    expect((await late.get("/api/self")).status).toBe(200);
  });

  it("reauth without a session, or with an expired one, is 401", async () => {
    const anonymous = new PanelClient(panel().url);
    await anonymous.prime();
    expectError(await anonymous.post("/auth/reauth"), 401, "ErrTokenInvalid");
    const client = await adminClient(panel());
    await expireSessions(panel(), admin.email, "session");
    const res = await client.post("/auth/reauth");
    expectError(res, 401, "ErrTokenInvalid");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("logout answers 204, clears the cookies and kills the session", async () => {
    const client = await adminClient(panel());
    const other = await adminClient(panel());
    const token = client.cookies.get("outpost_auth")!;
    const res = await client.post("/auth/logout");
    expect(res.status).toBe(204);
    for (const name of ["outpost_auth", "outpost_auth_expires"]) {
      const line = setCookie(res, name);
      expect(line).toBeDefined();
      expect(cookieValue(line)).toBeUndefined();
    }
    expectError(await client.get("/api/self"), 401, "ErrTokenInvalid");
    expectError(await client.get("/api/self", { bearer: token }), 401, "ErrTokenInvalid");
    // Only this session ends.
    expect((await other.get("/api/self")).status).toBe(200);
  });

  it("logout without a session is still 204", async () => {
    const client = new PanelClient(panel().url);
    await client.prime();
    expect((await client.post("/auth/logout")).status).toBe(204);
  });
});
