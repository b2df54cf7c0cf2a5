import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { adminApi, login, newServerId, snap, unique } from "./helpers.ts";

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

test("on a phone the server's sections are one row that scrolls sideways, the open one in sight", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL!);
  const id = newServerId();
  expect(
    (await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: unique("phone-tabs-"), node: 0 }))
      .status,
  ).toBe(200);
  // The last section, whose tab starts out of sight.
  await page.goto(`/servers/view/${id}#activity`);
  await login(page);
  const strip = page.getByRole("tablist", { name: "Server sections" });
  const tabs = strip.getByRole("tab");
  await expect(page.getByRole("tab", { name: "Activity" })).toHaveAttribute("aria-selected", "true");
  // Every section an administrator may open, Network and Mods among them.
  expect(await tabs.count()).toBe(15);

  // One row: the strip is one tab high (it was four rows at this width).
  const stripBox = (await strip.boundingBox())!;
  const tabBox = (await tabs.first().boundingBox())!;
  expect(stripBox.height).toBeLessThan(tabBox.height * 1.5);
  // It scrolls, not the page.
  expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);

  const inSight = async (name: string) => {
    const box = (await page.getByRole("tab", { name, exact: true }).boundingBox())!;
    const outer = (await strip.boundingBox())!;
    return box.x >= outer.x - 1 && box.x + box.width <= outer.x + outer.width + 1;
  };
  await expect.poll(() => inSight("Activity")).toBe(true);
  expect(await inSight("Console")).toBe(false);
  await snap(page, "server-tabs-phone");

  // The keyboard still moves along the tablist, and the strip follows.
  await page.getByRole("tab", { name: "Activity" }).focus();
  await page.keyboard.press("Home");
  await expect(page.getByRole("tab", { name: "Console" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Console" })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => inSight("Console")).toBe(true);
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Activity" })).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => inSight("Activity")).toBe(true);
  await expect(page).toHaveURL(/#activity$/);
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Console" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "Console" })).toBeVisible();

  expect((await api.delete(`/api/servers/${id}`)).status).toBe(204);
});
