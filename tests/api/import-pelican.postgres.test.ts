import { randomBytes } from "node:crypto";
import { describe, inject } from "vitest";
import { useImportSuite } from "../support/import-suite.ts";
import { postgresSource } from "../support/panel-source.ts";

/**
 * `outpost import pelican` from Pelican's dumped PostgreSQL schema (issue 40), into a panel on
 * PostgreSQL: a source database of its own in the suite's cluster.
 */
describe("outpost import pelican from PostgreSQL", () => {
  useImportSuite("pelican", false, () =>
    postgresSource(
      inject("postgresUrl"),
      `pelican_${randomBytes(4).toString("hex")}`,
      "pelican/pgsql-schema.sql",
    ),
  );
});
