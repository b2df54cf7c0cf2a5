import { describe } from "vitest";
import { useImportSuite } from "../support/import-suite.ts";
import { mysqlSource } from "../support/panel-source.ts";

/** `outpost import pterodactyl` from Pterodactyl's real schema on MariaDB (issue 40). */
describe("outpost import pterodactyl", () => {
  useImportSuite("pterodactyl", true, (mariadb) =>
    mysqlSource(mariadb.url, "panel", "pterodactyl/mysql-schema.sql"),
  );
});
