import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentOtp } from "../../server/panel/otp.ts";
import { expectError, newUser, setCookie } from "../support/expect-api.ts";
import { enableOtp, expireSessions } from "../support/panel-db.ts";
import { mailToInbox, SmtpInbox } from "../support/smtp-inbox.ts";
import { adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

describe("sign-in with a one-time code", () => {
  const panel = usePanel();

  /** A registered user with OTP on, and a client that has passed the password step. */
  async function pendingLogin() {
    const user = newUser("otp");
    await registeredClient(panel(), user);
    const secret = await enableOtp(panel(), user.email);
    const client = new PanelClient(panel().url);
    const res = await client.login(user.email, user.password);
    return { user, secret, client, res };
  }

  it("answers {otpNeeded:true} to the password step, with no session cookies", async () => {
    const { client, res } = await pendingLogin();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ otpNeeded: true });
    expect(setCookie(res, "outpost_auth")).toBeUndefined();
    expect(setCookie(res, "outpost_auth_expires")).toBeUndefined();
    expect(setCookie(res, "outpost_otp_pending")).toMatch(/HttpOnly/i);
    // The pending login is not a session.
    expectError(await client.get("/api/self"), 401, "ErrTokenInvalid");
    const pending = client.cookies.get("outpost_otp_pending")!;
    expect((await client.get("/api/self", { bearer: pending })).status).toBe(401);
  });

  it("completes the login with the current code: {scopes} and the session cookies", async () => {
    const { user, secret, client } = await pendingLogin();
    const res = await client.post("/auth/otp", { token: currentOtp(secret) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ scopes: ["login", "self.edit", "self.clients"] });
    expect(setCookie(res, "outpost_auth")).toMatch(/HttpOnly/i);
    expect(setCookie(res, "outpost_auth_expires")).toBeDefined();
    expect(client.cookies.has("outpost_otp_pending")).toBe(false);
    const self = await client.get("/api/self");
    expect(self.body).toMatchObject({ email: user.email, otpActive: true });
  });

  it("refuses a wrong code with ErrInvalidCredentials, and then still takes the right one", async () => {
    const { secret, client } = await pendingLogin();
    const right = currentOtp(secret);
    const wrong = right === "000000" ? "111111" : "000000";
    expectError(await client.post("/auth/otp", { token: wrong }), 400, "ErrInvalidCredentials");
    expectError(await client.post("/auth/otp", { token: "abc" }), 400, "ErrInvalidCredentials");
    expect(client.cookies.has("outpost_auth")).toBe(false);
    expect((await client.post("/auth/otp", { token: right })).status).toBe(200);
  });

  it("refuses a code that was already used", async () => {
    const { user, secret, client } = await pendingLogin();
    const code = currentOtp(secret);
    expect((await client.post("/auth/otp", { token: code })).status).toBe(200);
    const second = new PanelClient(panel().url);
    expect((await second.login(user.email, user.password)).body).toEqual({ otpNeeded: true });
    expectError(await second.post("/auth/otp", { token: code }), 400, "ErrInvalidCredentials");
    expect(second.cookies.has("outpost_auth")).toBe(false);
  });

  it("answers ErrInvalidSession when no login is waiting for a code", async () => {
    const client = new PanelClient(panel().url);
    await client.prime();
    expectError(await client.post("/auth/otp", { token: "123456" }), 400, "ErrInvalidSession");
  });

  it("answers ErrSessionExpired once the pending login is past its 5 minutes", async () => {
    const { user, secret, client, res } = await pendingLogin();
    expect(setCookie(res, "outpost_otp_pending")).toMatch(/Max-Age=300\b/);
    await expireSessions(panel(), user.email, "otp");
    expectError(await client.post("/auth/otp", { token: currentOtp(secret) }), 400, "ErrSessionExpired");
    expect(client.cookies.has("outpost_auth")).toBe(false);
  });

  it("cannot be skipped: a pending login cookie does not open /auth/reauth", async () => {
    const { client } = await pendingLogin();
    expectError(await client.post("/auth/reauth"), 401, "ErrTokenInvalid");
  });
});

describe("wrong one-time codes are counted per account too (issue 22, point 6)", () => {
  // Behind a trusted proxy each test request comes from the address it names.
  const panel = usePanel({ env: { OUTPOST_TRUST_PROXY: "true" } });
  const inbox = new SmtpInbox();

  beforeAll(async () => {
    const port = await inbox.start();
    await mailToInbox(await adminClient(panel()), port);
  });
  afterAll(() => inbox.stop());

  /** A code none of the steps around now accepts. */
  const wrongCode = (secret: string) => {
    const now = Date.now();
    const valid = new Set([-30_000, 0, 30_000, 60_000].map((d) => currentOtp(secret, now + d)));
    let code = 0;
    while (valid.has(String(code).padStart(6, "0"))) code++;
    return String(code).padStart(6, "0");
  };

  /** The password step from `address`, then one code from the same address. */
  const codeFrom = async (address: string, user: { email: string; password: string }, code: string) => {
    const client = new PanelClient(panel().url);
    const headers = { "x-forwarded-for": address };
    await client.prime();
    const first = await client.post(
      "/auth/login",
      { email: user.email, password: user.password },
      { headers },
    );
    expect(first.body).toEqual({ otpNeeded: true });
    return client.post("/auth/otp", { token: code }, { headers });
  };

  it("one wrong code from each of many addresses is refused after ten, with Retry-After, and the owner is told once", async () => {
    const user = newUser("spray");
    await registeredClient(panel(), user);
    const secret = await enableOtp(panel(), user.email);
    for (let i = 1; i <= 10; i++) {
      expectError(await codeFrom(`203.0.113.${i}`, user, wrongCode(secret)), 400, "ErrInvalidCredentials");
    }
    // Even the right code, from an address never seen, waits now.
    const refused = await codeFrom("198.51.100.20", user, currentOtp(secret));
    expectError(refused, 429, "ErrTooManyAttempts");
    const retryAfter = refused.body.error.metadata.retryAfter;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(refused.headers.get("retry-after")).toBe(String(retryAfter));
    expect(refused.setCookies.some((c) => c.startsWith("outpost_auth="))).toBe(false);

    const mail = await inbox.nth(1);
    expect(mail.to).toEqual([user.email]);
    expect(mail.headers.get("subject")).toContain("wrong two-factor codes");
    expect(mail.parts.get("text/plain")).toContain(user.username);
    // Refused attempts while held back send nothing more: one e-mail per hold.
    expectError(await codeFrom("198.51.100.21", user, wrongCode(secret)), 429, "ErrTooManyAttempts");
    // Nothing to wait for: a while in which no second e-mail may come.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inbox.mails.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });

  it("another account is not held back by them", async () => {
    const other = newUser("calm");
    await registeredClient(panel(), other);
    const secret = await enableOtp(panel(), other.email);
    const res = await codeFrom("203.0.113.1", other, currentOtp(secret));
    expect(res.status, res.text).toBe(200);
  });
});
