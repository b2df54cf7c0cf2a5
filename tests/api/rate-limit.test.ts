import { describe, expect, it } from "vitest";
import { expectError, newUser } from "../support/expect-api.ts";
import { admin, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * The throttle counts per panel process, so the order of these tests matters:
 * together they make exactly 20 failures from 127.0.0.1.
 */
describe("failed sign-ins are rate-limited", () => {
  const panel = usePanel();
  const attempt = async (email: string, password: string) => {
    const client = new PanelClient(panel().url);
    return client.login(email, password);
  };
  const victim = newUser("victim");

  it("refuses the 6th attempt on an account, even with the right password, with 429 and retryAfter", async () => {
    await registeredClient(panel(), victim);
    for (let i = 0; i < 5; i++) {
      expectError(await attempt(victim.email, `wrong-${i}`), 400, "ErrInvalidCredentials");
    }
    const refused = await attempt(victim.email, victim.password);
    expectError(refused, 429, "ErrTooManyAttempts");
    const retryAfter = refused.body.error.metadata.retryAfter;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.body.error.msg).toContain("${retryAfter}");
    expect(refused.setCookies.some((c) => c.startsWith("outpost_auth="))).toBe(false);
    // The e-mail is matched however it is written.
    expectError(await attempt(victim.email.toUpperCase(), victim.password), 429, "ErrTooManyAttempts");
  });

  it("still lets another account in from the same address", async () => {
    expect((await attempt(admin.email, admin.password)).status).toBe(200);
  });

  it("gives an unknown e-mail the same answer as a wrong password", async () => {
    const unknown = await attempt("nobody-1@example.com", "whatever-1");
    const wrong = await attempt(admin.email, "wrong-password");
    expectError(unknown, 400, "ErrInvalidCredentials");
    expect(unknown.text).toBe(wrong.text);
  });

  it("refuses every account from an address after 20 failures in the window", async () => {
    // So far: 5 (victim) + 1 (unknown) + 1 (admin) = 7 failures from this address; the admin has 1.
    for (let i = 2; i <= 13; i++) {
      const res = await attempt(`nobody-${i}@example.com`, "whatever-1");
      expectError(res, 400, "ErrInvalidCredentials");
    }
    // 19 failures: still open.
    expect((await attempt(admin.email, admin.password)).status).toBe(200);
    expectError(await attempt("nobody-14@example.com", "whatever-1"), 400, "ErrInvalidCredentials");
    const refused = await attempt(admin.email, admin.password);
    expectError(refused, 429, "ErrTooManyAttempts");
    expect(refused.body.error.metadata.retryAfter).toBeGreaterThan(0);
  });
});
