import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { login, preferencesSaved, registerUser, screenReady, signIn, snap, tr } from "./helpers.ts";

// Languages (issue 10): the browser's language picks the catalog, ar_SA lays the app out right
// to left, the picker on the account page switches and the choice follows the user.

/** Signs in as the administrator by the form's test ids, landing on the server list. */
async function signInToServers(page: Page) {
  await signIn(page);
  await expect(page).toHaveURL(/\/servers$/);
}

const browsers = [
  { tag: "de-DE", locale: "de_DE", dir: "ltr" },
  { tag: "ja-JP", locale: "ja_JP", dir: "ltr" },
  { tag: "ar-SA", locale: "ar_SA", dir: "rtl" },
] as const;

for (const { tag, locale, dir } of browsers) {
  test(`a browser asking for ${tag} gets the app in that language (${dir})`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      baseURL,
      locale: tag,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await page.goto("/auth/login");
    const html = page.locator("html");
    await expect(html).toHaveAttribute("lang", tag);
    await expect(html).toHaveAttribute("dir", dir);
    await expect(page.getByTestId("login-submit")).toHaveText(tr(locale, "Login", "shell"));
    await expect(page.getByLabel(tr(locale, "Email", "shell"))).toBeVisible();
    await signInToServers(page);
    const nav = page.getByRole("navigation").first();
    await expect(nav.getByRole("link", { name: tr(locale, "Servers", "shell") })).toBeVisible();
    const sidebar = await page.locator("aside").first().boundingBox();
    const main = await page.locator("main").boundingBox();
    if (dir === "rtl") {
      // The sidebar on the right, the screen to its left, direction icons mirrored.
      expect(sidebar!.x + sidebar!.width).toBeGreaterThan(1270);
      expect(main!.x).toBeLessThan(sidebar!.x);
      const flip = await page
        .locator("aside .flip-rtl")
        .first()
        .evaluate((el) => getComputedStyle(el).transform);
      expect(flip).toBe("matrix(-1, 0, 0, 1, 0, 0)");
    } else {
      expect(sidebar!.x).toBeLessThan(10);
    }
    await snap(page, `locale-${locale}-servers`);
    await context.close();
  });
}

test("the language picker lists locales by their own names, switches at once and the choice follows the user", async ({
  browser,
  page,
  baseURL,
}) => {
  const user = await registerUser(baseURL!, "lang");
  await page.goto("/auth/login");
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto("/self");
  const picker = page.getByTestId("preferences").getByLabel("Language");
  await expect(picker.locator("option")).not.toHaveCount(0);
  const names = await picker.locator("option").allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(3);
  expect(names.some((n) => n.includes("Deutsch"))).toBe(true);
  expect(names.some((n) => n.includes("日本語"))).toBe(true);
  expect(names.some((n) => n.includes("العربية"))).toBe(true);

  await picker.selectOption("de_DE");
  await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
  await expect(page.getByText(tr("de_DE", "Preferences"), { exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("locale"))).toBe("de_DE");
  await preferencesSaved(page, ["locale"]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");

  // Another browser that asks for English: the account's language wins once signed in.
  const other = await browser.newContext({ baseURL, locale: "en-US" });
  const second = await other.newPage();
  await second.goto("/auth/login");
  await expect(second.locator("html")).toHaveAttribute("lang", "en-US");
  await login(second, user.email, user.password);
  await expect(second).toHaveURL(/\/servers$/);
  await expect(second.locator("html")).toHaveAttribute("lang", "de-DE");

  // Right to left at once, without a reload.
  await second.goto("/self");
  await second.getByTestId("preferences").getByLabel(tr("de_DE", "Language")).selectOption("ar_SA");
  await expect(second.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(second.getByText(tr("ar_SA", "Preferences"), { exact: true })).toBeVisible();
  await other.close();
});

test.describe("right to left on a phone", () => {
  test.use({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, locale: "ar-SA" });

  test("sign-in, the server list, the sidebar and the account page fit a 360 px screen", async ({ page }) => {
    const fits = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.goto("/auth/login");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await snap(page, "rtl-phone-login");
    await fits();
    await signInToServers(page);
    await screenReady(page);
    await snap(page, "rtl-phone-servers");
    await fits();
    await page.getByRole("button", { name: tr("ar_SA", "Menu", "shell") }).click();
    const sidebar = await page.locator("aside").first().boundingBox();
    await expect(page.locator("aside").first()).toBeInViewport();
    expect(sidebar!.x + sidebar!.width).toBeGreaterThan(350);
    await snap(page, "rtl-phone-sidebar", { fullPage: false });
    await page.goto("/self");
    await expect(page.getByTestId("preferences")).toBeVisible();
    // The e-mail address reads left to right inside the right-to-left page.
    await expect(page.locator('input[type="email"]').first()).toHaveCSS("direction", "ltr");
    await snap(page, "rtl-phone-self");
    await fits();
    await page.goto("/nodes");
    await screenReady(page);
    await snap(page, "rtl-phone-nodes");
    await fits();
  });
});
