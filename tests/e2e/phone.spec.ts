import { expect, test } from "./fixtures.ts";
import { login, snap } from "./helpers.ts";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("on a phone the sidebar starts closed, opens from the menu and closes on a tap in the page", async ({
  page,
}) => {
  await page.goto("/auth/login");
  await snap(page, "login-phone");
  await login(page);
  await expect(page).toHaveURL(/\/servers$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Nodes" })).toBeHidden();
  await snap(page, "servers-phone");

  await page.getByRole("button", { name: "Menu" }).click();
  await expect(nav.getByRole("link", { name: "Nodes" })).toBeVisible();
  await snap(page, "sidebar-open-phone");
  await page.touchscreen.tap(370, 500);
  await expect(nav.getByRole("link", { name: "Nodes" })).toBeHidden();

  await page.getByRole("button", { name: "Menu" }).click();
  await nav.getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/self$/);
  await expect(nav.getByRole("link", { name: "Nodes" })).toBeHidden();
  await snap(page, "self-phone");
});
