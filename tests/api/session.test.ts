import { describe, expect, it } from "vitest";
import { admin, adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

describe("sign-in with cookies", () => {
  const panel = usePanel();

  it("logs the first administrator in and sets the session cookies", async () => {
    const client = new PanelClient(panel().url);
    const res = await client.login(admin.email, admin.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ scopes: ["admin"] });
    const auth = res.setCookies.find((c) => c.startsWith("outpost_auth="));
    const expires = res.setCookies.find((c) => c.startsWith("outpost_auth_expires="));
    expect(auth).toMatch(/HttpOnly/i);
    expect(auth).toMatch(/SameSite=Strict/i);
    expect(auth).toMatch(/Path=\//);
    expect(auth).not.toMatch(/Secure/i);
    expect(expires).not.toMatch(/HttpOnly/i);
    const self = await client.get("/api/self");
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ username: admin.username, email: admin.email, otpActive: false });
  });

  it("answers a wrong password and an unknown e-mail the same way", async () => {
    const client = new PanelClient(panel().url);
    await client.prime();
    const wrong = await client.post("/auth/login", { email: admin.email, password: "not-the-password" });
    const unknown = await client.post("/auth/login", { email: "nobody@example.com", password: "whatever1" });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ error: { code: "ErrInvalidCredentials", msg: "invalid credentials" } });
  });

  it("ends the session on logout", async () => {
    const client = await adminClient(panel());
    expect((await client.post("/auth/logout")).status).toBe(204);
    expect((await client.get("/api/self")).status).toBe(401);
  });
});
