import { defineConfig } from "vitest/config";
import { babelMacros } from "./scripts/vite-babel-macros.ts";
import { postgresIncludes } from "./tests/api/postgres-files.ts";

/**
 * Four projects: unit tests, contract tests, and the API suite twice — every file on SQLite, and
 * on a throw-away PostgreSQL cluster (started by its global setup) the files whose subject can
 * differ by database (tests/api/postgres-files.ts says which, and why).
 */
export default defineConfig({
  test: {
    // Three files at a time whatever the cores (Vitest's default is one fewer than the cores: one
    // on the 2-core CI machine). The API and contract files mostly wait on real processes, sockets
    // and timers: on 2 cores the whole run went from 20.4 to 7.9 minutes, every test passing.
    maxWorkers: 3,
    projects: [
      {
        // The web app's modules use Lingui macros: the same Babel pass as the build.
        plugins: [babelMacros(false)],
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      {
        test: {
          name: "contract",
          include: ["tests/contract/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "api-sqlite",
          include: ["tests/api/**/*.test.ts"],
          // Several panels on one database, a database cut away: PostgreSQL's alone, not skipped here.
          exclude: ["tests/api/**/*.postgres.test.ts"],
          env: { OUTPOST_TEST_DB: "sqlite" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "api-postgres",
          include: postgresIncludes,
          env: { OUTPOST_TEST_DB: "postgres" },
          globalSetup: ["tests/support/postgres-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
