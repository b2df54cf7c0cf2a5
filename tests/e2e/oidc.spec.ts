import { type IssuerAccount, startIssuer, type TestIssuer } from "../support/oidc-issuer.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, login, snap, unique, visitAsAdmin } from "./helpers.ts";

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
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto("/auth/login");
    const button = page.getByTestId("login-oidc").filter({ hasText: `Sign in with ${name}` });
    await expect(button).toBeVisible();
    await snap(page, "oidc-login-desktop");
    // What shows a refusal is loaded only when there is one (the login page's budget).
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => url.includes("oidcRefusal"))).toEqual([]);
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

  test("a person links the provider on their account page, signs in through it, and unlinks it", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL!);
    const username = unique("linker");
    const user = { username, email: `${username}@example.com`, password: "linker-password-1" };
    expect((await api.post("/api/users", user)).status).toBe(200);
    // Their account at the provider has another address: the link, not the address, joins them.
    const there = account("elsewhere");
    issuer!.signInAs(there);

    await page.goto("/self");
    await login(page, user.email, user.password);
    await expect(page).toHaveURL(/\/self$/);
    await page
      .getByTestId("link-oidc")
      .filter({ hasText: `Link ${name}` })
      .click();
    await expect(page).toHaveURL(/\/self/);
    const linked = page.getByTestId("oidc-link").filter({ hasText: name });
    await expect(linked).toContainText(there.email);
    await snap(page, "oidc-linked");

    await page.context().clearCookies();
    await page.goto("/auth/login");
    await page.getByTestId("login-oidc").filter({ hasText: name }).click();
    await expect(page).not.toHaveURL(/\/auth\//);
    expect((await (await page.request.get("/api/self")).json()).email).toBe(user.email);

    await page.goto("/self");
    await page.getByTestId("oidc-link").filter({ hasText: name }).getByTestId("unlink-oidc").click();
    await page.getByRole("dialog").getByRole("button", { name: "Unlink" }).click();
    await expect(page.getByTestId("oidc-link").filter({ hasText: name })).toHaveCount(0);
    await expect(page.getByTestId("link-oidc").filter({ hasText: name })).toBeVisible();
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test("an address outside the allowed domains is sent back to the login page, told why", async ({
      page,
    }) => {
      issuer!.signInAs(account("outsider", "elsewhere.org"));
      const refusal = page.waitForRequest((request) => request.url().includes("oidcRefusal"));
      await page.goto("/auth/login");
      await expectNoOverflow(page);
      await page.getByTestId("login-oidc").filter({ hasText: name }).click();
      await refusal;
      await expect(page).toHaveURL(/\/auth\/login$/);
      await expect(page.getByText(`${name} sign-ins are open to example.com addresses only`)).toBeVisible();
      await snap(page, "oidc-refused-phone", { fullPage: false });
      expect((await page.request.get("/api/self")).status()).toBe(401);
    });
  });

  test("an administrator adds, edits and deletes a provider on the roles page; the secret never comes back", async ({
    page,
    baseURL,
  }) => {
    const api = await adminApi(baseURL!);
    const roleName = unique("SSO role ");
    const role = await api.post("/api/roles", { name: roleName, scopes: ["nodes.view"] });
    expect(role.status, role.text).toBe(200);
    const added = unique("Company SSO ");
    const secret = "a-secret-typed-once";

    await visitAsAdmin(page, "/access");
    const section = page.getByTestId("oidc-providers");
    await section.getByTestId("oidc-add").click();
    const form = section.getByTestId("oidc-form");
    // Nothing is sent without a name, an issuer and a client id.
    await form.getByTestId("oidc-form-save").click();
    await expect(form.getByText("Enter a name")).toBeVisible();
    await form.getByTestId("oidc-name").fill(added);
    await form.getByTestId("oidc-issuer").fill(issuer!.url);
    await form.getByTestId("oidc-client-id").fill("panel-client");
    await form.getByTestId("oidc-client-secret").fill(secret);
    await form.getByTestId("oidc-domains").fill("example.com, @Example.org");
    await form.getByTestId("oidc-create-accounts").check();
    await form.getByTestId("oidc-enabled").uncheck();
    await form.getByTestId("oidc-role-claim").fill("groups");
    await form.getByTestId("oidc-map-add").click();
    const row = form.getByTestId("oidc-map-row");
    await row.getByLabel("Claim value").fill("ops");
    await row.getByLabel("Role").selectOption({ label: roleName });
    await snap(page, "oidc-provider-form");
    await form.getByTestId("oidc-form-save").click();

    const item = section.getByTestId("oidc-provider").filter({ hasText: added });
    await expect(item).toContainText("Off · Creates accounts");
    const saved = ((await api.get("/api/oidc-providers")).body as { id: number; name: string }[]).find(
      (p) => p.name === added,
    );
    expect(saved).toMatchObject({
      issuer: issuer!.url,
      clientId: "panel-client",
      clientSecretSet: true,
      createAccounts: true,
      enabled: false,
      allowedDomains: ["example.com", "example.org"],
      roleClaim: "groups",
      roleMap: { ops: String(role.body.id) },
    });
    // The address to register at the provider is the panel's own callback for this provider.
    await expect(item.getByTestId("oidc-redirect")).toContainText(`/auth/oidc/${saved?.id}/callback`);

    // Editing leaves the secret field empty, and an empty field keeps the stored secret.
    await item.getByRole("button", { name: "Edit" }).click();
    const edit = section.getByTestId("oidc-form");
    await expect(edit.getByTestId("oidc-client-secret")).toHaveValue("");
    await expect(edit.getByText("A secret is stored: leave empty to keep it.")).toBeVisible();
    await expect(edit.getByTestId("oidc-map-row").getByLabel("Role")).toHaveValue(String(role.body.id));
    expect(await page.content()).not.toContain(secret);
    await edit.getByTestId("oidc-enabled").check();
    await edit.getByTestId("oidc-form-save").click();
    await expect(item).toContainText("On the login page");
    const edited = (await api.get("/api/oidc-providers")).body.find(
      (p: { id: number }) => p.id === saved?.id,
    );
    expect(edited).toMatchObject({ enabled: true, clientSecretSet: true });

    await item.getByTestId("oidc-delete").click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(`Delete the provider ${added}?`);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(item).toHaveCount(0);
    expect((await api.get("/api/oidc-providers")).body.some((p: { id: number }) => p.id === saved?.id)).toBe(
      false,
    );
    expect((await api.delete(`/api/roles/${role.body.id}`)).status).toBe(204);
  });

  test.describe("the providers' form on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test("fits 390 px", async ({ page, baseURL }) => {
      // A role, so the form offers to map a claim value to one.
      const api = await adminApi(baseURL!);
      const role = await api.post("/api/roles", { name: unique("Phone role "), scopes: [] });
      expect(role.status, role.text).toBe(200);
      await visitAsAdmin(page, "/access");
      const section = page.getByTestId("oidc-providers");
      await expect(section.getByTestId("oidc-provider").filter({ hasText: name })).toBeVisible();
      await section.getByTestId("oidc-add").click();
      await section.getByTestId("oidc-map-add").click();
      await section.getByTestId("oidc-form").scrollIntoViewIfNeeded();
      await expectNoOverflow(page);
      await snap(page, "oidc-providers-phone");
      expect((await api.delete(`/api/roles/${role.body.id}`)).status).toBe(204);
    });
  });
});
