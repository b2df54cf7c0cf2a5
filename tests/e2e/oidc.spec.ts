import { type IssuerAccount, startIssuer, type TestIssuer } from "../support/oidc-issuer.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, snap, unique } from "./helpers.ts";

// OpenID Connect sign-in in Chromium (issue 39), against a real OpenID provider started in this
// process (tests/support/oidc-issuer.ts): the login page's button takes the browser to the
// provider, whose login finishes at once as the account it is told, and back to the panel.
test.describe("single sign-on", () => {
  let issuer: TestIssuer | undefined;
  let providerId = 0;
  const name = unique("SSO ");

  test.beforeAll(async ({ baseURL }) => {
    const api = await adminApi(baseURL!);
    const fields = { name, clientId: "outpost-panel", createAccounts: true, allowedDomains: ["example.com"] };
    // The provider's redirect URI names the panel's id for it, so the id comes first: made disabled
    // with a stand-in issuer, then pointed at the provider once it runs.
    const made = await api.post("/api/oidc-providers", {
      ...fields,
      issuer: "http://127.0.0.1:9",
      enabled: false,
    });
    expect(made.status, made.text).toBe(200);
    providerId = made.body.id;
    issuer = await startIssuer([`${baseURL}/auth/oidc/${providerId}/callback`]);
    const ready = await api.put(`/api/oidc-providers/${providerId}`, {
      ...fields,
      issuer: issuer.url,
      clientSecret: issuer.clientSecret,
    });
    expect(ready.status, ready.text).toBe(200);
  });

  test.afterAll(async ({ baseURL }) => {
    if (providerId) await (await adminApi(baseURL!)).delete(`/api/oidc-providers/${providerId}`);
    await issuer?.close();
  });

  const account = (prefix: string, domain = "example.com"): IssuerAccount => {
    const who = unique(prefix);
    return { sub: `sub-${who}`, email: `${who}@${domain}`, preferred_username: who };
  };

  test("the provider's button signs a new person in, and signs them in again later", async ({ page }) => {
    const person = account("sso");
    issuer!.signInAs(person);
    await page.goto("/auth/login");
    const button = page.getByTestId("login-oidc").filter({ hasText: `Sign in with ${name}` });
    await expect(button).toBeVisible();
    await snap(page, "oidc-login-desktop");
    await button.click();
    // Through the provider and back, signed in on the panel's home.
    await expect(page).not.toHaveURL(/\/auth\//);
    await expect(page.locator("main h1").first()).toBeVisible();
    const self = await page.request.get("/api/self");
    expect(self.status()).toBe(200);
    expect((await self.json()).email).toBe(person.email);

    // Signed out, the same person comes back to the same account.
    await page.context().clearCookies();
    await page.goto("/auth/login");
    await page.getByTestId("login-oidc").filter({ hasText: name }).click();
    await expect(page).not.toHaveURL(/\/auth\//);
    expect((await (await page.request.get("/api/self")).json()).email).toBe(person.email);
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test("an address outside the allowed domains is sent back to the login page, told why", async ({
      page,
    }) => {
      issuer!.signInAs(account("outsider", "elsewhere.org"));
      await page.goto("/auth/login");
      await expectNoOverflow(page);
      await page.getByTestId("login-oidc").filter({ hasText: name }).click();
      await expect(page).toHaveURL(/\/auth\/login$/);
      await expect(page.getByText(`${name} sign-ins are open to example.com addresses only`)).toBeVisible();
      await snap(page, "oidc-refused-phone", { fullPage: false });
      expect((await page.request.get("/api/self")).status()).toBe(401);
    });
  });
});
