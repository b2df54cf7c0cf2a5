import { beforeAll, describe, expect, it } from "vitest";
import { expectError, newUser, setCookie } from "../support/expect-api.ts";
import { admin, adminClient, PanelClient, usePanel } from "../support/test-panel.ts";

describe("POST /auth/register", () => {
  const panel = usePanel();
  const register = async (body: unknown) => {
    const client = new PanelClient(panel().url);
    await client.prime();
    return { client, res: await client.post("/auth/register", body) };
  };
  const setRegistration = async (on: boolean) => {
    const api = await adminClient(panel());
    expect((await api.put("/api/settings/panel.registrationEnabled", { value: on })).status).toBe(204);
  };

  it("is off by default: 404 and no account is made", async () => {
    const user = newUser("off");
    const { res } = await register(user);
    expectError(res, 404, "ErrRegistrationDisabled");
    await setRegistration(true);
    // The same e-mail is still free once registration opens.
    expect((await register(user)).res.status).toBe(200);
    await setRegistration(false);
    expect((await register(newUser("off"))).res.status).toBe(404);
  });

  describe("when enabled", () => {
    beforeAll(() => setRegistration(true));

    it("creates the account, signs it in and grants login, self.edit and self.clients", async () => {
      const user = newUser("reg");
      const { client, res } = await register({ ...user, email: user.email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ scopes: ["login", "self.edit", "self.clients"] });
      expect(setCookie(res, "outpost_auth")).toMatch(/HttpOnly/i);
      expect(setCookie(res, "outpost_auth_expires")).toBeDefined();
      const self = await client.get("/api/self");
      expect(self.status).toBe(200);
      expect(self.body).toMatchObject({ username: user.username, email: user.email, otpActive: false });
      // self.edit really is held: the new user may change their own account.
      const rename = await client.put("/api/self", {
        username: `${user.username}x`,
        password: user.password,
      });
      expect(rename.status).toBe(204);
      const again = await new PanelClient(panel().url).login(user.email, user.password);
      expect(again.body).toEqual({ scopes: ["login", "self.edit", "self.clients"] });
    });

    it.each([
      ["username", { email: "a@example.com", password: "password-1" }],
      ["email", { username: "someone", password: "password-1" }],
      ["password", { username: "someone", email: "a@example.com" }],
    ])("refuses a missing %s with ErrFieldRequired", async (field, body) => {
      expectError((await register(body)).res, 400, "ErrFieldRequired", { field });
    });

    it("refuses an empty username as required", async () => {
      const { res } = await register({ ...newUser("empty"), username: "   " });
      expectError(res, 400, "ErrFieldRequired", { field: "username" });
    });

    it("refuses a username shorter than 5 characters with ErrFieldLength", async () => {
      const { res } = await register({ ...newUser("short"), username: "abcd" });
      expectError(res, 400, "ErrFieldLength", { field: "username", min: 5 });
      expect((await register({ ...newUser("five"), username: "abcde" })).res.status).toBe(200);
    });

    it.each(["no-at-sign", "a@b", "a@b.c", "@example.com", "a b@example.com"])(
      "refuses the e-mail %j with ErrFieldNotEmail",
      async (email) => {
        const { res } = await register({ ...newUser("mail"), email });
        expectError(res, 400, "ErrFieldNotEmail", { field: "email" });
      },
    );

    it("refuses a password shorter than 8 characters with ErrPasswordRequirements", async () => {
      const { res } = await register({ ...newUser("pw"), password: "1234567" });
      expectError(res, 400, "ErrPasswordRequirements");
    });

    it("refuses a taken username or e-mail (any case) with 409 ErrUserExists", async () => {
      const taken = await register({ ...newUser("dup"), username: admin.username });
      expectError(taken.res, 409, "ErrUserExists", { field: "username" });
      const email = await register({ ...newUser("dup"), email: "Admin@EXAMPLE.com" });
      expectError(email.res, 409, "ErrUserExists", { field: "email" });
      expect(email.client.cookies.has("outpost_auth")).toBe(false);
    });
  });
});

describe("POST /auth/register from one address", () => {
  const panel = usePanel({ env: { OUTPOST_REGISTRATIONS_PER_ADDRESS: "2" } });

  it("makes a few accounts, then answers 429 with Retry-After and makes none", async () => {
    const api = await adminClient(panel());
    expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
    const register = async (body: unknown) => {
      const client = new PanelClient(panel().url);
      await client.prime();
      return client.post("/auth/register", body);
    };
    for (const name of ["flood1", "flood2"]) expect((await register(newUser(name))).status).toBe(200);
    const refused = newUser("flood3");
    const res = await register(refused);
    expectError(res, 429, "ErrTooManyAttempts");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    // No account was made: its password signs nobody in.
    expectError(
      await new PanelClient(panel().url).login(refused.email, refused.password),
      400,
      "ErrInvalidCredentials",
    );
    // Signing in from that address is not held back.
    expect((await new PanelClient(panel().url).login(admin.email, admin.password)).status).toBe(200);
  });
});
