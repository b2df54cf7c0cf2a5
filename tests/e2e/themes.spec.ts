import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { createTar } from "nanotar";
import { expect, test } from "./fixtures.ts";
import { login, preferencesSaved, registerUser, snap } from "./helpers.ts";

// Theme modes and settings (issue 10): the system preference decides "auto", the Self page's
// choices apply at once, survive a reload (before the app's script runs) and follow the user.

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
/** Relative luminance of an rgb() colour, enough to tell a dark page from a light one. */
const lightness = (rgb: string) => {
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};

for (const scheme of ["dark", "light"] as const) {
  test(`a browser preferring ${scheme} gets a ${scheme} page`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto("/auth/login");
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.locator("html")).toHaveClass(/mode-auto/);
    const l = lightness(await background(page));
    if (scheme === "dark") expect(l).toBeLessThan(0.2);
    else expect(l).toBeGreaterThan(0.8);
    await context.close();
  });
}

test("theme, colour and font size chosen on the account page apply at once, before the app's script on reload, and on another device", async ({
  page,
  browser,
  baseURL,
}) => {
  const user = await registerUser(baseURL!, "theme");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/auth/login");
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto("/self");
  const prefs = page.getByTestId("preferences");
  await prefs.getByLabel("Theme").selectOption("dark");
  await prefs.getByLabel("Primary colour").fill("#ffeb3b");
  await prefs.getByLabel("Text size").selectOption("4");
  await prefs.getByLabel("Font").selectOption("accessible");
  const html = page.locator("html");
  await expect(html).toHaveClass(/mode-dark/);
  await expect(html).toHaveClass(/font-accessible/);
  expect(lightness(await background(page))).toBeLessThan(0.2);
  // Yellow is light: text on it is the dark grey (spec §9).
  await expect(html).toHaveCSS("--on-primary", "#333");
  await expect(html).toHaveCSS("font-size", "20px");
  await snap(page, "theme-self-dark");
  await preferencesSaved(page, ["themeSettings"]);

  // A reload with the app's scripts held back: the page is already dark, yellow and larger.
  await page.route(/\/(assets|src)\/.*\.(js|tsx?)$/, (route) => route.abort());
  await page.reload();
  await expect(html).toHaveClass(/mode-dark/);
  await expect(html).toHaveCSS("--primary", "#ffeb3b");
  await expect(html).toHaveCSS("font-size", "20px");
  expect(lightness(await background(page))).toBeLessThan(0.2);
  await page.unroute(/\/(assets|src)\/.*\.(js|tsx?)$/);

  // Another browser (no local storage): the settings come with the account.
  const other = await browser.newContext({ baseURL, colorScheme: "light" });
  const second = await other.newPage();
  await second.goto("/auth/login");
  await login(second, user.email, user.password);
  await expect(second).toHaveURL(/\/servers$/);
  const html2 = second.locator("html");
  await expect(html2).toHaveClass(/mode-dark/);
  await expect(html2).toHaveCSS("--primary", "#ffeb3b");
  await expect(html2).toHaveCSS("font-size", "20px");
  await second.goto("/self");
  await expect(second.getByTestId("preferences").getByLabel("Text size")).toHaveValue("4");

  // Back to light and the default size there; the first browser picks it up when it next signs in.
  await second.getByTestId("preferences").getByLabel("Theme").selectOption("light");
  await expect(html2).toHaveClass(/mode-light/);
  expect(lightness(await background(second))).toBeGreaterThan(0.8);
  await other.close();
});

/** Where the broken archive is dropped; other tests share the panel, so it goes afterwards. */
const brokenArchive = () => path.join(process.env.E2E_PREACT_DATA!, "themes", "Broken.tar");
test.afterAll(() => fs.rmSync(brokenArchive(), { force: true }));

test("theme archives: the high-contrast one applies from the account page and on reload; a broken one says so and the app keeps the built-in theme", async ({
  page,
  baseURL,
}) => {
  // An administrator drops a broken archive into the data folder (a tar without a manifest).
  const themes = path.join(process.env.E2E_PREACT_DATA!, "themes");
  fs.mkdirSync(themes, { recursive: true });
  fs.writeFileSync(brokenArchive(), createTar([{ name: "theme.css", data: "body{display:none}" }]));

  const user = await registerUser(baseURL!, "archive");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/auth/login");
  await login(page, user.email, user.password);
  await expect(page).toHaveURL(/\/servers$/);
  await page.goto("/self");
  const style = page.getByTestId("preferences").getByLabel("Style");
  await expect(style.locator("option")).toHaveText(["Broken", "HighContrast", "Outpost"]);
  await expect(style).toHaveValue("Outpost");

  await style.selectOption("HighContrast");
  // Its manifest makes dark high contrast the default for a user who has not chosen a mode.
  await expect(page.locator("html")).toHaveClass(/mode-dark-hc/);
  await expect(page.locator("style#theme-css")).toHaveCount(1);
  expect(lightness(await background(page))).toBe(0);
  await snap(page, "theme-high-contrast");
  await page.reload();
  await expect(page.locator("style#theme-css")).toHaveCount(1);
  await expect(page.getByTestId("preferences").getByLabel("Style")).toHaveValue("HighContrast");

  await page.getByTestId("preferences").getByLabel("Style").selectOption("Broken");
  await expect(page.getByText("no theme manifest found")).toBeVisible();
  await expect(page.locator("style#theme-css")).toHaveCount(0);
  await expect(page.getByTestId("preferences")).toBeVisible();
  await expect(page.locator("html")).toHaveClass(/mode-auto/);
  await page.reload();
  await expect(page.getByText("no theme manifest found")).toBeVisible();
  await expect(page.getByTestId("preferences")).toBeVisible();
  await snap(page, "theme-broken");
});
