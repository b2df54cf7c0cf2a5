import type { Browser, Page } from "@playwright/test";
import { echoDefinition } from "../support/echo-template.ts";
import { expect, test } from "./fixtures.ts";
import { admin, adminApi, deviceContext, login, registerUser, signIn, snap, tr, unique } from "./helpers.ts";

// What a new administrator and native speakers tripped over (issue 27): the server view's tabs in
// long languages, the phone's top bar and drawer, and a language change reaching every label.

let serverId = "";

test.beforeAll(async ({ baseURL }) => {
  const api = await adminApi(baseURL!);
  serverId = `${Date.now().toString(16).slice(-6)}f7`;
  const created = await api.put(`/api/servers/${serverId}`, {
    ...echoDefinition(),
    name: unique("tabs-"),
    node: 0,
    users: [admin.username],
  });
  expect(created.status, created.text).toBe(200);
});

const sizes = [
  { width: 1280, height: 800, phone: false },
  { width: 390, height: 844, phone: true },
] as const;

async function open(browser: Browser, baseURL: string, locale: string, size: (typeof sizes)[number]) {
  const context = await deviceContext(browser, { baseURL, locale, width: size.width });
  const page = await context.newPage();
  return { context, page };
}

/** Nothing wider than the window: no sideways scroll. */
async function noSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const locale of ["de-DE", "ru-RU", "ar-SA"]) {
  for (const size of sizes) {
    test(`server view in ${locale} at ${size.width} px: every tab whole, the Users tab's Add button on its card`, async ({
      browser,
      baseURL,
    }) => {
      const { context, page } = await open(browser, baseURL!, locale, size);
      await page.goto(`/servers/view/${serverId}`);
      await signIn(page);
      await expect(page.getByTestId("server-title")).toBeVisible();
      const list = page.getByRole("tablist");
      const tabs = list.getByRole("tab");
      expect(await tabs.count()).toBeGreaterThanOrEqual(6);
      const box = (await list.boundingBox())!;
      for (const tab of await tabs.all()) {
        const name = await tab.textContent();
        // On a phone the strip is one row that scrolls sideways: each tab is measured once in sight.
        await tab.scrollIntoViewIfNeeded();
        // The label is not cut inside its tab, and the tab is not cut by the strip.
        expect(await tab.evaluate((el) => el.scrollWidth - el.clientWidth), name!).toBeLessThanOrEqual(1);
        const t = (await tab.boundingBox())!;
        expect(t.x, name!).toBeGreaterThanOrEqual(box.x - 1);
        expect(t.x + t.width, name!).toBeLessThanOrEqual(box.x + box.width + 1);
      }
      await noSidewaysScroll(page, size.width);
      // Numbers in one script: Arabic pages write CPU and memory in the digits of the address beside them.
      await expect(page.locator(".server-stats dd").first()).not.toBeEmpty();
      expect(await page.locator("main").textContent()).not.toMatch(/[\u0660-\u0669]/);
      await snap(page, `tabs-${locale}-${size.width}`);

      await page.locator("#tab-users").click();
      const section = page.locator("#section-users");
      const add = section.getByTestId("add-user-submit");
      await expect(add).toBeVisible();
      const card = (await section.getByTestId("add-user").boundingBox())!;
      const button = (await add.boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(card.x - 1);
      expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width + 1);
      await noSidewaysScroll(page, size.width);
      await snap(page, `users-tab-${locale}-${size.width}`);
      await context.close();
    });
  }
}

test("on a phone the company name and the search placeholder are whole, and the drawer shows no keyboard hints", async ({
  browser,
  baseURL,
}) => {
  // A company name longer than "Outpost", as a real one often is.
  const api = await adminApi(baseURL!);
  const setName = async (value: string) =>
    expect((await api.put("/api/settings/panel.settings.companyName", { value })).status).toBe(204);
  await setName("Blue Fox Game Servers");
  try {
    await phoneTopBar(browser, baseURL!);
  } finally {
    await setName("Outpost");
  }
});

async function phoneTopBar(browser: Browser, baseURL: string) {
  for (const locale of ["en-US", "de-DE", "ru-RU"]) {
    const { context, page } = await open(browser, baseURL, locale, sizes[1]);
    await page.goto("/servers");
    await signIn(page);
    await expect(page).toHaveURL(/\/servers$/);
    const brand = page.locator(".topbar .brand");
    await expect(brand).toHaveText("Blue Fox Game Servers");
    // Whole: neither cut at the side nor below its lines.
    expect(
      await brand.evaluate((el) =>
        Math.max(el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight),
      ),
      locale,
    ).toBeLessThanOrEqual(1);
    // The placeholder's own width against the room the box gives it.
    const search = page.locator(".topbar .search input");
    const room = await search.evaluate((el) => {
      const input = el as HTMLInputElement;
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.font = getComputedStyle(input).font;
      return input.clientWidth - ctx.measureText(input.placeholder).width;
    });
    expect(room, locale).toBeGreaterThanOrEqual(0);
    await noSidewaysScroll(page, 390);
    await snap(page, `phone-topbar-${locale}`, { fullPage: false });

    await page.locator(".topbar button.icon-btn").first().click();
    const drawer = page.locator("aside").first();
    await expect(drawer).toBeInViewport();
    // Slid fully in (the drawer moves in over 0.2 s).
    await expect.poll(async () => (await drawer.boundingBox())!.x).toBeGreaterThanOrEqual(0);
    await expect(drawer.locator("kbd").first()).toBeHidden();
    await snap(page, `phone-drawer-${locale}`, { fullPage: false });
    await context.close();
  }
}

test("changing the language on the account page changes every label at once", async ({ page, baseURL }) => {
  const user = await registerUser(baseURL!, "relabel");
  await page.goto("/auth/login");
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto("/self");
  const picker = page.getByTestId("preferences").getByLabel("Language");
  await picker.selectOption("de_DE");
  await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
  await expect(page.getByText(tr("de_DE", "Preferences"), { exact: true })).toBeVisible();

  await page.getByTestId("preferences").getByLabel(tr("de_DE", "Language")).selectOption("ar_SA");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByText(tr("ar_SA", "Preferences"), { exact: true })).toBeVisible();
  // Shell and screen, text and labels: all Arabic, nothing German left.
  const nav = page.getByRole("navigation").first();
  await expect(nav.getByRole("link", { name: tr("ar_SA", "Servers", "shell") })).toBeVisible();
  await expect(page.locator(".topbar .search input")).toHaveAttribute(
    "placeholder",
    tr("ar_SA", "Search", "shell"),
  );
  await expect(page.locator(".avatar-link")).toHaveAttribute(
    "aria-label",
    tr("ar_SA", "My profile", "shell"),
  );
  for (const english of ["Servers", "Logout", "Search", "My profile"]) {
    const german = tr("de_DE", english, "shell");
    await expect(page.locator("body")).not.toContainText(german);
    await expect(
      page.locator(`[aria-label="${german}"], [title="${german}"], [placeholder="${german}"]`),
    ).toHaveCount(0);
  }
  for (const english of ["Preferences", "Language", "Theme", "Two-factor sign-in"]) {
    await expect(page.locator("main")).not.toContainText(tr("de_DE", english));
  }
  await snap(page, "language-change-ar");
});

test("in Arabic the sidebar's collapse chevron points the mirrored way", async ({ browser, baseURL }) => {
  const { context, page } = await open(browser, baseURL!, "ar-SA", sizes[0]);
  await page.goto("/servers");
  await signIn(page);
  await expect(page).toHaveURL(/\/servers$/);
  const collapse = page.locator("aside .sidebar-foot button[aria-pressed]");
  await expect(collapse).toBeVisible();
  expect(await collapse.locator("svg").evaluate((el) => getComputedStyle(el).transform)).toBe(
    "matrix(-1, 0, 0, 1, 0, 0)",
  );
  await context.close();
});

test("until the master URL is saved, administrators see that shown addresses say 127.0.0.1; users never do", async ({
  page,
  browser,
  baseURL,
}) => {
  const user = await registerUser(baseURL!, "notice");
  const theirs = await browser.newContext({ baseURL });
  const userPage = await theirs.newPage();
  await userPage.goto("/servers");
  await login(userPage, user.email, user.password);
  await expect(userPage).toHaveURL(/\/servers$/);

  await page.goto("/servers");
  await login(page);
  const notice = page.getByTestId("master-url-notice");
  await expect(notice).toContainText("say 127.0.0.1 until the panel's address is saved");
  await snap(page, "master-url-notice");
  await notice.getByRole("link", { name: "Set the panel address" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByLabel("Panel address (master URL)")).toBeVisible();
  await expect(userPage.getByTestId("server-list").or(userPage.locator("main"))).toBeVisible();
  await expect(userPage.getByTestId("master-url-notice")).toHaveCount(0);

  // Saved (here the address the tests use anyway): the notice is gone from the next screen on.
  const api = await adminApi(baseURL!);
  expect((await api.put("/api/settings/panel.settings.masterUrl", { value: baseURL })).status).toBe(204);
  await page.getByRole("link", { name: "Servers" }).first().click();
  await expect(page).toHaveURL(/\/servers$/);
  await expect(notice).toHaveCount(0);
  await theirs.close();
});
