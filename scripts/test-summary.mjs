// Closes the `npm test` run from the runners' reports in test-reports/: the
// counts per runner, the slowest tests across Vitest and Playwright, and one
// line "tests: N passed, N failed". Exits non-zero when a report is missing or
// counts no tests, so an empty run never looks green. After a failed run
// (scripts/test.sh calls it then too) it prints what there is; the run's own
// exit status stands either way.
import fs from "node:fs";

const slowestCount = 20;
let complete = true;

const read = (file) => {
  if (!fs.existsSync(file)) {
    console.error(`test summary: ${file} is missing`);
    complete = false;
    return undefined;
  }
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    console.error(`test summary: ${file} is not readable JSON (${error.message})`);
    complete = false;
    return undefined;
  }
};

const vitest = read("test-reports/vitest.json");
const vitestTimings = read("test-reports/vitest-timings.json") ?? [];
const playwright = read("test-reports/playwright.json");

/** Each Playwright test run, with the describe titles before its own. */
function playwrightTimings(report) {
  const tests = [];
  const walk = (suite, titles) => {
    // The file's own suite is titled with the file name: not part of the test's name.
    const here = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        if (results.length === 0) continue;
        tests.push({
          name: [...here, spec.title].join(" > "),
          file: `tests/e2e/${spec.file}`,
          project: `e2e ${test.projectName}`,
          duration: results.reduce((sum, r) => sum + (r.duration ?? 0), 0),
          status: results.at(-1).status,
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return tests;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const failedMark = (status) => (["failed", "timedOut", "interrupted"].includes(status) ? " (failed)" : "");
const cut = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const timed = [...vitestTimings, ...playwrightTimings(playwright)].sort((a, b) => b.duration - a.duration);
if (timed.length > 0) {
  const slowest = timed.slice(0, slowestCount);
  const width = (key) => Math.max(...slowest.map((t) => t[key].length));
  const [projectWidth, fileWidth] = [width("project"), width("file")];
  console.log(`slowest ${slowest.length} tests:`);
  for (const t of slowest) {
    console.log(
      `${seconds(t.duration).padStart(8)}  ${t.project.padEnd(projectWidth)}  ${t.file.padEnd(fileWidth)}  ${cut(t.name, 110)}${failedMark(t.status)}`,
    );
  }
  console.log();
}

let passed = 0;
let failed = 0;
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  console.log(
    `vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${vitest.numPendingTests + vitest.numTodoTests} skipped`,
  );
}
if (playwright) {
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = playwright.stats ?? {};
  passed += expected + flaky;
  failed += unexpected;
  console.log(`playwright: ${expected} passed, ${unexpected} failed, ${skipped} skipped`);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
if (!complete || passed === 0 || failed > 0) process.exit(1);
