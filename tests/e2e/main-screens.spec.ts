import { expect, test } from "./fixtures.ts";
import { screenReady, signIn, snap } from "./helpers.ts";

// The main screens in German (long words), Arabic (right to left) and Japanese (no spaces) at a
// desktop's 1280 px and a phone's 390 px (issue 41): each one fits its width, nothing of it wider
// than the window. With OUTPOST_SCREENSHOTS=1 each is pictured, to be looked at.

const screens = [
  "/servers",
  "/servers/new",
  "/nodes",
  "/templates",
  "/users",
  "/activity",
  "/settings",
  "/self",
];

for (const locale of ["de-DE", "ar-SA", "ja-JP"])
  for (const width of [1280, 390])
    test(`the main screens fit ${width} px in ${locale}`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ baseURL, locale, viewport: { width, height: 860 } });
      const page = await context.newPage();
      await page.goto("/auth/login");
      await expect(page.getByTestId("login-email")).toBeVisible();
      await snap(page, `main-${locale}-${width}-login`);
      await signIn(page);
      await expect(page).toHaveURL(/\/servers$/);
      for (const path of screens) {
        await page.goto(path);
        await screenReady(page);
        const wider = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(wider, `${path} is ${wider} px wide`).toBeLessThanOrEqual(width);
        await snap(page, `main-${locale}-${width}${path.replaceAll("/", "-")}`, { fullPage: false });
      }
      await context.close();
    });
