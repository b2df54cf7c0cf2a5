// Prints one closing line for the whole `npm test` run, from the runners' JSON
// reports: "tests: N passed, N failed". Exits non-zero when a report is missing
// or counts no tests, so an empty run never looks green.
import fs from "node:fs";

const read = (file) => {
  if (!fs.existsSync(file)) {
    console.error(`test summary: ${file} is missing`);
    process.exit(1);
  }
  return JSON.parse(fs.readFileSync(file, "utf8"));
};

const vitest = read("test-reports/vitest.json");
const playwright = read("test-reports/playwright.json");
const passed = vitest.numPassedTests + (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
const failed = vitest.numFailedTests + (playwright.stats.unexpected ?? 0);
console.log(
  `vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${vitest.numPendingTests + vitest.numTodoTests} skipped`,
);
console.log(
  `playwright: ${playwright.stats.expected} passed, ${playwright.stats.unexpected} failed, ${playwright.stats.skipped} skipped`,
);
console.log(`tests: ${passed} passed, ${failed} failed`);
if (passed === 0 || failed > 0) process.exit(1);
