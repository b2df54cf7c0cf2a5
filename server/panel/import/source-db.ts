import Sqlite from "better-sqlite3";

export type SourceRow = Record<string, unknown>;

/** The other panel's database, opened so that nothing can be written to it. */
export interface SourceDb {
  /** Where it is, without its password: names the source in the table of what was imported. */
  readonly label: string;
  /** Every row of a table (empty when the table does not exist in this version of the panel). */
  rows(table: string): Promise<SourceRow[]>;
  close(): Promise<void>;
}

const tableName = /^[a-z_]+$/;

/**
 * Opens `mysql://…`, `postgres://…` or `sqlite:/path` read-only: SQLite's file in read-only mode,
 * MySQL/MariaDB in a READ ONLY transaction, PostgreSQL with default_transaction_read_only; each
 * read sees one snapshot. The source is never written, whatever a bug here would try.
 */
export async function openSource(url: string): Promise<SourceDb> {
  if (url.startsWith("sqlite:")) return openSqlite(url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, ""));
  const parsed = new URL(url);
  parsed.password = "";
  const label = parsed.toString();
  if (parsed.protocol === "mysql:" || parsed.protocol === "mariadb:") return openMysql(url, label);
  if (parsed.protocol === "postgres:" || parsed.protocol === "postgresql:") return openPostgres(url, label);
  throw new Error(`--database must be mysql://…, postgres://… or sqlite:/path (got ${parsed.protocol})`);
}

function openSqlite(file: string): SourceDb {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  return {
    label: `sqlite:${file}`,
    async rows(table) {
      if (!tableName.test(table)) throw new Error(`bad table name ${table}`);
      const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      return exists ? (db.prepare(`SELECT * FROM "${table}"`).all() as SourceRow[]) : [];
    },
    async close() {
      db.close();
    },
  };
}

async function openMysql(url: string, label: string): Promise<SourceDb> {
  const mysql = await import("mysql2/promise");
  const connection = await mysql.createConnection({
    uri: url.replace(/^mariadb:/, "mysql:"),
    dateStrings: true,
  });
  await connection.query("START TRANSACTION READ ONLY");
  return {
    label,
    async rows(table) {
      if (!tableName.test(table)) throw new Error(`bad table name ${table}`);
      const [exists] = await connection.query(
        "SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?",
        [table],
      );
      if ((exists as unknown[]).length === 0) return [];
      const [rows] = await connection.query(`SELECT * FROM \`${table}\``);
      return rows as SourceRow[];
    },
    async close() {
      await connection.query("ROLLBACK").catch(() => {});
      await connection.end();
    },
  };
}

async function openPostgres(url: string, label: string): Promise<SourceDb> {
  const { default: pg } = await import("pg");
  // Laravel's `timestamp` columns (without a zone, in the app's UTC) are read as their text, as
  // MySQL's are (dateStrings): pg would read them in this host's zone.
  const types = {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === pg.types.builtins.TIMESTAMP
        ? (text: string) => text
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const client = new pg.Client({
    connectionString: url,
    options: "-c default_transaction_read_only=on",
    types,
  });
  await client.connect();
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  return {
    label,
    async rows(table) {
      if (!tableName.test(table)) throw new Error(`bad table name ${table}`);
      const exists = await client.query("SELECT to_regclass($1) AS t", [table]);
      if (!exists.rows[0]?.t) return [];
      return (await client.query(`SELECT * FROM "${table}"`)).rows as SourceRow[];
    },
    async close() {
      await client.query("ROLLBACK").catch(() => {});
      await client.end();
    },
  };
}
