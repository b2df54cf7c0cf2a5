import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { expect, test } from "./fixtures.ts";
import { snap } from "./helpers.ts";

// Issue 11: a new version of the app waits until the user takes it. The service worker (sw/) is
// built with injectManifest and registered with workbox-window after first paint (issue 25); this
// checks that its update still reaches the "Reload" toast and that Reload swaps it in. The test
// serves its own copy of the build so it can change sw.js.

const repoRoot = path.resolve(import.meta.dirname, "../..");
let panel: PanelProcess;
let webDir: string;

test.beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-web-"));
  fs.cpSync(path.join(repoRoot, process.env.E2E_DIST || "dist"), webDir, { recursive: true });
  panel = await startPanel({ webDir });
});

test.afterAll(async () => {
  await panel?.stop();
  fs.rmSync(webDir, { recursive: true, force: true });
});

/**
 * Deploys a "new version" (a changed sw.js), checks for it, and takes it through the toast;
 * `reloadFirst`: the page is reloaded before, so the worker was waiting before it registered.
 */
async function takeNextVersion(page: Page, n: number, reloadFirst = false): Promise<void> {
  fs.appendFileSync(path.join(webDir, "sw.js"), `\n// version ${n}\n`);
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
  await expect(page.getByText("A new version of the panel is ready.")).toBeVisible();
  if (reloadFirst) {
    await page.reload();
    await expect(page.getByText("A new version of the panel is ready.")).toBeVisible();
  }
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r?.waiting))).toBe(
    true,
  );
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Reload" }).click()]);
  await expect
    .poll(() =>
      page.evaluate(() =>
        navigator.serviceWorker
          .getRegistration()
          .then((r) => !r?.waiting && r?.active?.state === "activated"),
      ),
    )
    .toBe(true);
  await expect(page.getByText("A new version of the panel is ready.")).toHaveCount(0);
  await expect(page.getByLabel("Email")).toBeVisible();
}

test("a new service worker waits, the toast offers Reload, and Reload swaps it in", async ({ page }) => {
  // The registration (workbox-window) is a chunk of its own, asked for only after the load event.
  let loaded = false;
  const registration: boolean[] = [];
  page.once("load", () => {
    loaded = true;
  });
  page.on("request", (request) => {
    if (/\/assets\/register-sw-[^/]+\.js$/.test(new URL(request.url()).pathname)) registration.push(loaded);
  });
  await page.goto(`${panel.url}/auth/login`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  // The page of a first visit (no worker when it loaded), then one loaded under a worker.
  expect(registration).toEqual([true]);
  await takeNextVersion(page, 2);
  await takeNextVersion(page, 3);
  await takeNextVersion(page, 4, true);
});

test("the update prompt at desktop and phone size", async ({ page }) => {
  await page.goto(`${panel.url}/auth/login`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  fs.appendFileSync(path.join(webDir, "sw.js"), "\n// version for the screenshots\n");
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
  const prompt = page.getByText("A new version of the panel is ready.");
  for (const [label, width, height] of [
    ["desktop", 1280, 800],
    ["phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(prompt).toBeVisible();
    await expect(page.getByRole("button", { name: "Reload" })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await snap(page, `sw-update-prompt-${label}`);
  }
});
