import { describe, expect, it } from "vitest";
import { expectError, newUser } from "../support/expect-api.ts";
import { admin, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * The throttle counts per panel process, so the order of these tests matters:
 * together they make exactly 20 failures from 127.0.0.1.
 */
describe("failed sign-ins are rate-limited", () => {
  const panel = usePanel();
  // Without a trusted proxy, X-Forwarded-For is the client's own words and changes nothing.
  let spoof = 0;
  const attempt = async (email: string, password: string) => {
    const client = new PanelClient(panel().url);
    await client.prime();
    return client.post(
      "/auth/login",
      { email, password },
      { headers: { "x-forwarded-for": `198.18.0.${++spoof}` } },
    );
  };
  const victim = newUser("victim");

  it("refuses the 6th attempt from an address on an account, even with the right password, with 429 and Retry-After", async () => {
    await registeredClient(panel(), victim);
    for (let i = 0; i < 5; i++) {
      expectError(await attempt(victim.email, `wrong-${i}`), 400, "ErrInvalidCredentials");
    }
    const refused = await attempt(victim.email, victim.password);
    expectError(refused, 429, "ErrTooManyAttempts");
    const retryAfter = refused.body.error.metadata.retryAfter;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(refused.headers.get("retry-after")).toBe(String(retryAfter));
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
    expect(Number(refused.headers.get("retry-after"))).toBe(refused.body.error.metadata.retryAfter);
  });
});

describe("behind a trusted proxy, the throttle counts the client's address (issue 13 #12)", () => {
  // "true": the proxies are on this host or a private network; the test's loopback connection is one.
  const panel = usePanel({ env: { OUTPOST_TRUST_PROXY: "true" } });
  /** A sign-in as the proxy forwards it: X-Forwarded-For as the client sent it, then the client's address. */
  const via = async (forwardedFor: string, email: string, password: string) => {
    const client = new PanelClient(panel().url);
    await client.prime();
    return client.post("/auth/login", { email, password }, { headers: { "x-forwarded-for": forwardedFor } });
  };

  it("someone guessing the administrator's password does not lock the administrator out", async () => {
    for (let i = 0; i < 5; i++) {
      expectError(await via("203.0.113.5", admin.email, `wrong-${i}`), 400, "ErrInvalidCredentials");
    }
    const guesser = await via("203.0.113.5", admin.email, admin.password);
    expectError(guesser, 429, "ErrTooManyAttempts");
    expect(Number(guesser.headers.get("retry-after"))).toBeGreaterThan(0);
    // The administrator, from their own address, signs in.
    expect((await via("198.51.100.7", admin.email, admin.password)).status).toBe(200);
  });

  it("addresses the client writes into X-Forwarded-For itself do not make it someone new", async () => {
    // The rightmost hop is what the proxy saw; whatever stands left of it, the client wrote.
    for (let i = 1; i <= 20; i++) {
      const res = await via(`198.18.7.${i}, 203.0.113.77`, `sprayed-${i}@example.com`, "whatever-1");
      expectError(res, 400, "ErrInvalidCredentials");
    }
    const refused = await via("198.18.7.99, 203.0.113.77", admin.email, admin.password);
    expectError(refused, 429, "ErrTooManyAttempts");
    // Another client behind the same proxy is not held back.
    expect((await via("203.0.113.78", admin.email, admin.password)).status).toBe(200);
  });
});
