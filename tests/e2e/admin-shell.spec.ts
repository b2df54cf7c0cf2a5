import { expect, test } from "./fixtures.ts";
import { admin, login, snap } from "./helpers.ts";

test("the first administrator signs in, sees every section, navigates by hotkey and signs out", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await snap(page, "login-desktop");

  await login(page);
  await expect(page).toHaveURL(/\/servers$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const label of [
    "Servers",
    "Nodes",
    "Users",
    "Templates",
    "Settings",
    "Database hosts",
    "Roles and presets",
    "Activity",
    "Account",
  ]) {
    await expect(nav.getByRole("link", { name: label })).toBeVisible();
  }
  await expect(page).toHaveTitle(/Outpost/);
  await expect(page.getByRole("link", { name: "My profile" })).toBeVisible();
  await snap(page, "servers-desktop");

  const hotkeys: [string, RegExp][] = [
    ["n", /\/nodes$/],
    ["u", /\/users$/],
    ["t", /\/templates$/],
    ["c", /\/settings$/],
    ["a", /\/self$/],
    ["s", /\/servers$/],
  ];
  for (const [key, url] of hotkeys) {
    await page.locator("body").press("g");
    await page.locator("body").press(key);
    await expect(page).toHaveURL(url);
  }

  await page.locator("body").press("/");
  await expect(page.getByRole("searchbox", { name: "Search" }).or(page.getByLabel("Search"))).toBeFocused();
  // Leave the search without clicking the page: a server row may sit anywhere (specs before this one make servers).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Hotkeys" });
  await expect(help).toBeVisible();
  for (const entry of ["Focus search", "Servers", "Nodes", "Users", "Templates", "Settings", "Account"]) {
    await expect(help.getByText(entry, { exact: true })).toBeVisible();
  }
  // The keys that open and close the dialog itself are not listed.
  await expect(help.getByText("Escape", { exact: true })).toHaveCount(0);
  await snap(page, "hotkeys-help");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.goto("/self");
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test("a wrong password shows an error and keeps the user on the login page", async ({ page }) => {
  await page.goto("/auth/login");
  await login(page, admin.email, "not-the-password");
  await expect(page.getByRole("alert").or(page.getByRole("status")).first()).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
});
