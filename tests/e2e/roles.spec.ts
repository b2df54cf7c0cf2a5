import { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, expectNoOverflow, snap, unique, visitAsAdmin } from "./helpers.ts";

/** A registered account, through the API, and its id. */
async function member(baseURL: string) {
  const api = await adminApi(baseURL);
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);
  const name = unique("member");
  const user = { username: name, email: `${name}@example.com`, password: "member-password-1" };
  const client = new PanelClient(baseURL);
  await client.prime();
  expect((await client.post("/auth/register", user)).status).toBe(200);
  const id: number = (await client.get("/api/self")).body.id;
  return { api, user, id };
}

test("an administrator makes a role that requires two-factor and a preset; the role's user is sent to enrol", async ({
  page,
  browser,
  baseURL,
}) => {
  const { api, user, id } = await member(baseURL!);
  await visitAsAdmin(page, "/access");
  const roles = page.getByTestId("roles");
  await expect(roles).toBeVisible();

  // A role: a name, global scopes, two-factor required.
  const roleName = unique("Strict support ");
  await roles.getByTestId("role-add").click();
  const form = roles.getByTestId("role-form");
  await form.getByRole("textbox", { name: "Name" }).fill(roleName);
  await form.getByTestId("role-require2fa").check();
  await form.getByLabel("See nodes").check();
  // A role never holds admin or login: they are not offered.
  await expect(form.getByLabel("Sign in")).toHaveCount(0);
  await snap(page, "access-role-form");
  await form.getByTestId("role-form-save").click();
  const item = roles.getByTestId("role").filter({ hasText: roleName });
  await expect(item).toContainText("Two-factor required");
  const role = ((await api.get("/api/roles")).body as { id: number; name: string; scopes: string[] }[]).find(
    (r) => r.name === roleName,
  );
  expect(role?.scopes).toEqual(["nodes.view"]);

  // A preset: a scope brings what it needs along.
  const presets = page.getByTestId("presets");
  const presetName = unique("Builders ");
  await presets.getByTestId("preset-add").click();
  const presetForm = presets.getByTestId("preset-form");
  await presetForm.getByRole("textbox", { name: "Name" }).fill(presetName);
  await presetForm.getByLabel("Change, upload and delete files").check();
  await expect(presetForm.getByLabel("Browse and download files")).toBeChecked();
  await presetForm.getByTestId("preset-form-save").click();
  await expect(presets.getByTestId("preset").filter({ hasText: presetName })).toContainText("Permissions: 3");
  await expect(presets.locator('[data-preset="viewer"]')).toContainText("Built in");
  await snap(page, "access");

  // The role, given on the user's page.
  await page.goto(`/users/view/${id}`);
  const panel = page.locator(".user-roles");
  await panel.getByLabel(roleName).check();
  await panel.getByRole("button", { name: "Save roles" }).click();
  await expect(page.getByText("Roles saved")).toBeVisible();
  expect((await api.get(`/api/users/${id}/roles`)).body.roles).toEqual([role?.id]);

  // The user signs in and is sent to enrol first (at localhost: a passkey needs a named site).
  const theirs = await browser.newContext({ baseURL: baseURL!.replace("127.0.0.1", "localhost") });
  const their = await theirs.newPage();
  await their.goto("/auth/login");
  await their.getByLabel("Email").fill(user.email);
  await their.getByLabel("Password", { exact: true }).fill(user.password);
  await their.getByRole("button", { name: "Login" }).click();
  await expect(their).toHaveURL(/\/self$/);
  await expect(their.getByTestId("two-factor-required")).toBeVisible();
  await snap(their, "two-factor-required");
  // A passkey is enrolment too: made here, the rest of the account page comes back.
  const cdp = await theirs.newCDPSession(their);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await their.getByTestId("passkey-name").fill("Phone");
  await their.getByTestId("add-passkey").click();
  await expect(their.getByTestId("passkey").filter({ hasText: "Phone" })).toBeVisible();
  await expect(their.getByTestId("two-factor-required")).toBeHidden();
  expect((await their.request.get("/api/servers")).status()).toBe(200);
  await theirs.close();
  expect((await api.delete(`/api/roles/${role?.id}`)).status).toBe(204);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("roles and presets fit 390 px", async ({ page }) => {
    await visitAsAdmin(page, "/access");
    await expect(page.getByTestId("presets").locator('[data-preset="coowner"]')).toBeVisible();
    await page.getByTestId("role-add").click();
    await expect(page.getByTestId("role-form")).toBeVisible();
    await expectNoOverflow(page);
    await snap(page, "access-phone");
  });
});
