import { PanelClient } from "../support/http-client.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, snap, unique } from "./helpers.ts";

test("a registered user sees only what their scopes allow, and the admin APIs refuse them", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  expect((await api.put("/api/settings/panel.registrationEnabled", { value: true })).status).toBe(204);

  const name = unique("player");
  const user = { username: name, email: `${name}@example.com`, password: "player-password-1" };
  await page.goto("/auth/login");
  await page.getByRole("link", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/auth\/register$/);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await snap(page, "register");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/servers$/);

  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Servers" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Account" })).toBeVisible();
  for (const hidden of ["Nodes", "Users", "Templates", "Settings"]) {
    await expect(nav.getByRole("link", { name: hidden })).toHaveCount(0);
  }
  await snap(page, "plain-user");

  // The hotkey of a section they may not see does nothing.
  await page.locator("body").press("g");
  await page.locator("body").press("n");
  await expect(page).toHaveURL(/\/servers$/);

  const client = new PanelClient(baseURL!);
  expect((await client.login(user.email, user.password)).status).toBe(200);
  for (const path of ["/api/nodes", "/api/settings/panel.settings.companyName"]) {
    const res = await client.get(path);
    expect(res.status, path).toBe(403);
  }
});
