import { defineConfig } from "@playwright/test";

/** Specs that change panel-wide settings or depend on their values (a sign-in provider shows on every login page). */
const panelWide = /\/(settings|first-use|offline|server-users|admin-shell|oidc)\.spec\.ts$/;
/**
 * Run alone, after the rest: the ports spec gives the local node a pool of ports for a while: a
 * server another spec made on that node meanwhile would take one of them (as it should).
 */
const alone = /\/ports\.spec\.ts$/;

/**
 * End-to-end tests in Debian's Chromium against real panels started by the
 * global setup: one serving the production (Preact-aliased) build, one the
 * real-React build for the smoke test. Browsers are never downloaded.
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two workers, files in parallel and the tests of a file in order. Specs share the panels, so each
  // finds its own data by search or id; those that change panel-wide settings run one at a time.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    browserName: "chromium",
    headless: true,
    screenshot: "only-on-failure",
    trace: "off",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    // They set the company name or the mail provider, or look at them (the title, an invitation's
    // link or mail): one file at a time, beside the rest. First, so the long one does not run last alone.
    { name: "preact-panel-wide", testMatch: panelWide, workers: 1 },
    { name: "preact", testIgnore: [/react-smoke/, panelWide, alone] },
    { name: "react", testMatch: /react-smoke/ },
    {
      name: "preact-alone",
      testMatch: alone,
      workers: 1,
      dependencies: ["preact-panel-wide", "preact", "react"],
    },
  ],
});
