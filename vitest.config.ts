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
