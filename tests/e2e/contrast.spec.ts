import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { login, screenReady } from "./helpers.ts";

// WCAG AA contrast of text (axe-core's color-contrast rule) on the main screens, in every shipped
// theme and mode. The admin's preferences are set in local storage only: the user-settings calls
// are answered in the browser, so the account keeps its own.

const axeSource = createRequire(import.meta.url)("axe-core").source as string;
const screens = ["/servers", "/self", "/nodes", "/users", "/templates", "/settings"];
const modes = [
  { mode: "light", scheme: "light" },
  { mode: "dark", scheme: "light" },
  { mode: "dark-hc", scheme: "light" },
  { mode: "auto", scheme: "dark" },
] as const;

async function contrastProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run: (o: unknown) => Promise<AxeResult> } }).axe.run({
      runOnly: { type: "rule", values: ["color-contrast"] },
    }),
  );
  // The rule looked at text (an empty page would pass anything).
  expect(result.passes.flatMap((p) => p.nodes).length).toBeGreaterThan(3);
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ")}`),
  );
}
interface AxeViolation {
  nodes: { target: string[]; failureSummary?: string }[];
}
interface AxeResult {
  violations: AxeViolation[];
  passes: AxeViolation[];
}

for (const theme of ["Outpost", "HighContrast"]) {
  for (const { mode, scheme } of modes) {
    test(`text contrast passes WCAG AA: theme ${theme}, mode ${mode} (${scheme} device)`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ baseURL, colorScheme: scheme });
      await context.addInitScript(
        ([t, m]) => {
          localStorage.setItem("theme", t);
          localStorage.setItem("themeSettings", JSON.stringify({ mode: m }));
        },
        [theme, mode],
      );
      await context.route("**/api/userSettings**", (route) =>
        route.request().method() === "GET" ? route.fulfill({ json: [] }) : route.fulfill({ status: 204 }),
      );
      const page = await context.newPage();
      await page.goto("/auth/login");
      await expect(page.getByLabel("Email")).toBeVisible();
      const problems: string[] = [];
      const check = async (where: string) => {
        await expect(page.locator("html")).toHaveClass(new RegExp(`mode-${mode}`));
        if (theme !== "Outpost") await expect(page.locator("style#theme-css")).toHaveCount(1);
        await screenReady(page);
        for (const p of await contrastProblems(page)) problems.push(`${where} ${p}`);
      };
      await check("/auth/login");
      await login(page);
      await expect(page).toHaveURL(/\/servers$/);
      for (const screen of screens) {
        await page.goto(screen);
        await expect(page.locator("main, .app-main").first()).toBeVisible();
        await check(screen);
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }
}
