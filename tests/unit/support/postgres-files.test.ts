import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../../vitest.config.ts";
import { postgresGroups, postgresIncludes } from "../../api/postgres-files.ts";

const apiDir = path.resolve(import.meta.dirname, "../../api");
const apiFiles = fs
  .readdirSync(apiDir)
  .filter((f) => f.endsWith(".test.ts"))
  .sort();
const listed = new Set(postgresGroups.flatMap((g) => g.files));

/**
 * What ties a test file to the database layer, so that it must run on PostgreSQL too: it reads or
 * writes the panel's tables itself (panel-db beyond granting scopes, scratch-db), imports the
 * storage code or a database driver, or branches on the database / restarts a panel on the one it wrote.
 */
const databaseTies: [string, RegExp][] = [
  ["reads or writes the panel's tables (withPanelDb)", /\bwithPanelDb\b/],
  [
    "uses panel-db for more than granting scopes",
    /\b(enableOtp|createOAuthClient|expireSessions?|sessionExpiry|storedSetting|storedSecrets|panelSecretBox)\b/,
  ],
  ["uses a scratch database", /support\/scratch-db\.ts/],
  ["imports the storage layer", /from "[./]*\/server\/db\//],
  ["imports a database driver or query builder", /from "(pg|better-sqlite3|kysely)"/],
  [
    "branches on the database, or starts a panel on one it names",
    /\b(OUTPOST_TEST_DB|postgresUrl|databaseUrl)\b/,
  ],
];

const isListed = (file: string) =>
  file.endsWith(".postgres.test.ts") || listed.has(file.replace(/\.test\.ts$/, ""));

describe("the API files api-postgres runs (tests/api/postgres-files.ts)", () => {
  it("holds every API file that touches the database layer", () => {
    const missing = apiFiles.flatMap((file) => {
      const text = fs.readFileSync(path.join(apiDir, file), "utf8");
      const ties = databaseTies.filter(([, rule]) => rule.test(text)).map(([why]) => why);
      return ties.length > 0 && !isListed(file) ? [`${file}: ${ties.join("; ")}`] : [];
    });
    expect(missing).toEqual([]);
  });

  it("names only files that exist, each once", () => {
    const names = postgresGroups.flatMap((g) => g.files).filter((f) => !f.includes("*"));
    expect(names.filter((n) => !apiFiles.includes(`${n}.test.ts`))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("is what the api-postgres project includes, while api-sqlite takes every file", () => {
    const projects = (config.test?.projects ?? []) as { test?: { name?: string; include?: string[] } }[];
    const byName = (name: string) => projects.find((p) => p.test?.name === name)?.test;
    expect(byName("api-postgres")?.include).toEqual(postgresIncludes);
    expect(byName("api-sqlite")?.include).toEqual(["tests/api/**/*.test.ts"]);
  });

  it("the rule sees a file that opens the panel's database", () => {
    const ruleHits = (text: string) => databaseTies.some(([, rule]) => rule.test(text));
    expect(ruleHits('import { withPanelDb } from "../support/panel-db.ts";')).toBe(true);
    expect(ruleHits('import pg from "pg";')).toBe(true);
    expect(ruleHits('const onSqlite = process.env.OUTPOST_TEST_DB !== "postgres";')).toBe(true);
    expect(ruleHits('import { setServerScopes } from "../support/panel-db.ts";')).toBe(false);
  });
});
