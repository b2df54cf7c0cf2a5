import type { Dialect } from "../database.ts";

/** Only the auto-increment column type differs between SQLite and PostgreSQL. */
export const serialType = (dialect: Dialect) => (dialect === "postgres" ? "serial" : "integer");
