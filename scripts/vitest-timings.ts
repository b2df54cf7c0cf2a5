import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** Where `npm test` keeps it; scripts/test-summary.mjs reads it for the slowest tests. */
export const timingsFile = "test-reports/vitest-timings.json";

/**
 * A Vitest reporter that writes each test's duration with its project, which
 * Vitest's JSON report leaves out (the API suite runs once per database, so a
 * file alone does not say which run was slow). Written however the run ends.
 */
export default class TimingsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const tests = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const diagnostic = test.diagnostic();
        if (!diagnostic) continue;
        tests.push({
          name: test.fullName,
          file: path.relative(process.cwd(), module.moduleId),
          project: module.project.name,
          duration: diagnostic.duration,
          status: test.result().state,
        });
      }
    }
    fs.mkdirSync(path.dirname(timingsFile), { recursive: true });
    fs.writeFileSync(timingsFile, JSON.stringify(tests));
  }
}
