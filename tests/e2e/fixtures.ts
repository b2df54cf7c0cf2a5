import { test as base, expect } from "@playwright/test";

/**
 * The panels start in the global setup, after the config was read, so the
 * base URL is looked up per test from the environment the setup filled in.
 */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  baseURL: async ({}, use, testInfo) => {
    const url = process.env[testInfo.project.name === "react" ? "E2E_REACT_URL" : "E2E_PREACT_URL"];
    if (!url) throw new Error("the e2e global setup did not start a panel");
    await use(url);
  },
});

export { expect };
