import path from "node:path";
import { describe } from "vitest";
import { useImportSuite } from "../support/import-suite.ts";
import { mysqlSource, sqliteSource } from "../support/panel-source.ts";

/** `outpost import pelican` from Pelican's real schemas, on SQLite and on MariaDB (issue 40). */
describe("outpost import pelican from SQLite", () => {
  useImportSuite("pelican", false, async (_mariadb, work) =>
    sqliteSource(path.join(work, "database.sqlite"), "pelican/sqlite-schema.sql"),
  );
});

describe("outpost import pelican from MariaDB", () => {
  useImportSuite("pelican", false, (mariadb) =>
    mysqlSource(mariadb.url, "pelican", "pelican/mysql-schema.sql"),
  );
});
