import { defineConfig } from "vitest/config";
import { babelMacros } from "./scripts/vite-babel-macros.ts";

/**
 * Three projects: unit tests, and the API suite twice — once on SQLite, once
 * on a throw-away PostgreSQL cluster started by its global setup.
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
          include: ["tests/api/**/*.test.ts"],
          env: { OUTPOST_TEST_DB: "postgres" },
          globalSetup: ["tests/support/postgres-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
