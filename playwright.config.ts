import { defineConfig } from "@playwright/test";

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
  workers: 1,
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
    { name: "preact", testIgnore: /react-smoke/ },
    { name: "react", testMatch: /react-smoke/ },
  ],
});
