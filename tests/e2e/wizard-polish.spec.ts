import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { deviceContext, snap, visitAsAdmin } from "./helpers.ts";

// The server wizard, polished (issue 27): a repository that cannot be read shows the Templates
// page's calm notice (when it was last tried, Retry, git's words quoted) instead of a red error;
// Minecraft's last step tells the game's memory from the server's limit; OpenTTD's map size hint
// speaks of tiles as its choices do.

const repoRoot = path.resolve(import.meta.dirname, "../..");

async function open(browser: Browser, baseURL: string, locale: string, width: number) {
  const context = await deviceContext(browser, { baseURL, locale, width });
  const page = await context.newPage();
  await visitAsAdmin(page, "/servers/new");
  await expect(page.getByTestId("wizard-template")).toBeVisible();
  return { context, page };
}

/** Through the wizard to its last step with the starter template named. */
async function lastStep(page: Page, display: string) {
  await page.getByTestId("template-item").filter({ hasText: display }).click();
  for (let i = 0; i < 3; i++) await page.getByTestId("wizard-next").click();
  const settings = page.getByTestId("wizard-settings");
  await expect(settings).toBeVisible();
  return settings;
}

test("an unreadable repository in the wizard: last tried, Retry, git's words quoted, no red text", async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await open(browser, baseURL!, "en-US", 1280);
  const notice = page.getByTestId("repo-error");
  await expect(notice).toContainText("could not be read");
  await expect(notice).toContainText("Last tried");
  // The source's own message is quoted, not passed off as the panel's sentence.
  await expect(notice.locator("q")).toHaveCount(1);
  // Calm: the sentence in the text colour (the icon and the edge carry the colour).
  const [text, body] = await notice.evaluate((el) => [
    getComputedStyle(el).color,
    getComputedStyle(document.body).color,
  ]);
  expect(text).toBe(body);
  const retried = page.waitForResponse((r) => /\/api\/templates\/1\?retry=true$/.test(r.url()));
  await notice.getByRole("button", { name: "Retry" }).click();
  expect((await retried).status()).toBe(502);
  await expect(notice).toContainText("Last tried");
  await snap(page, "wizard-repo-notice");
  await context.close();
});

test("Minecraft's last step: the game's memory and the server's memory limit have their own labels", async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await open(browser, baseURL!, "en-US", 1280);
  const settings = await lastStep(page, "Minecraft: Java Edition");
  await expect(settings.getByLabel("Java heap (MiB)")).toHaveValue("2048");
  await expect(settings.getByLabel("Memory limit (MiB)")).toBeVisible();
  await expect(settings.getByLabel("Memory (MiB)", { exact: true })).toHaveCount(0);
  await snap(page, "wizard-minecraft-memory");
  await context.close();
});

test("OpenTTD's map size hint speaks of tiles, as its choices do", async ({ browser, baseURL }) => {
  const { context, page } = await open(browser, baseURL!, "en-US", 1280);
  const settings = await lastStep(page, "OpenTTD");
  const size = settings.getByLabel("Map size");
  await expect(size.locator("option:checked")).toHaveText("256 tiles");
  await expect(size).toHaveAccessibleDescription(/tiles/i);
  await expect(settings).not.toContainText("power");
  await context.close();
});

for (const locale of ["de-DE", "ru-RU", "ar-SA"]) {
  for (const width of [1280, 390]) {
    test(`the wizard's repository notice in ${locale} at ${width} px fits`, async ({ browser, baseURL }) => {
      const { context, page } = await open(browser, baseURL!, locale, width);
      const notice = page.getByTestId("repo-error");
      await expect(notice.locator("q")).toHaveCount(1);
      // git's English reads left to right inside an Arabic sentence.
      expect(await notice.locator("q").evaluate((q) => getComputedStyle(q).direction)).toBe("ltr");
      await expect(notice.getByTestId("repo-retry")).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snap(page, `wizard-repo-notice-${locale}-${width}`);
      await context.close();
    });
  }
}

// The starter templates' texts come in the page's language (locales/<locale>/starter-templates.json).
for (const [locale, catalog, width] of [
  ["de-DE", "de_DE", 1280],
  ["ar-SA", "ar_SA", 390],
] as const) {
  test(`the starter templates speak ${locale} in the wizard at ${width} px`, async ({ browser, baseURL }) => {
    const texts = JSON.parse(
      fs.readFileSync(path.join(repoRoot, "locales", catalog, "starter-templates.json"), "utf8"),
    );
    const { context, page } = await open(browser, baseURL!, locale, width);
    await expect(
      page.getByTestId("template-item").filter({ hasText: texts["custom-command"].display }),
    ).toHaveCount(1);
    const settings = await lastStep(page, "OpenTTD");
    const size = settings.getByLabel(texts.openttd["mapsize.display"]);
    await expect(size.locator("option:checked")).toHaveText(texts.openttd["mapsize.option.8"]);
    await expect(size).toHaveAccessibleDescription(texts.openttd["mapsize.desc"]);
    await expect(settings).not.toContainText("Map size");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await snap(page, `wizard-starter-texts-${catalog}-${width}`);
    await context.close();
  });
}
