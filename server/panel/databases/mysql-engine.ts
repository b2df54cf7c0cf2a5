import type { Connection } from "mysql2/promise";
import {
  connectTimeoutMs,
  type DatabaseEngine,
  type DatabaseNames,
  type HostAccess,
  hostError,
  markLeftSomething,
  statementTimeoutMs,
} from "./engine.ts";

/** Users may connect from anywhere: game servers reach the host from their nodes' addresses. */
const anyHost = "%";

/**
 * In GRANT, `_` and `%` in a database name are wildcards: `s1_a_b` would also match `s1_aXb`,
 * another database of the same server. Escaped, the grant names one database only.
 */
const grantPattern = (database: string) => database.replace(/[_%\\]/g, (c) => `\\${c}`);

/**
 * MySQL or MariaDB, through mysql2: identifiers quoted by `escapeId`; user names and passwords as
 * `?` values, which mysql2 quotes as string literals (MariaDB does not take CREATE USER's account
 * or password as server-side parameters). The values are the panel's own: `u<id>_<random>` and
 * 32 letters and digits.
 */
export class MysqlEngine implements DatabaseEngine {
  constructor(private readonly access: HostAccess) {}

  async version(): Promise<string> {
    return await this.session(async (c) => {
      const [rows] = await c.query("SELECT VERSION() AS version");
      return String((rows as { version: string }[])[0]?.version ?? "");
    });
  }

  async create(names: DatabaseNames, password: string): Promise<void> {
    let undone = true;
    await this.session(async (c) => {
      const { escapeId } = await import("mysql2/promise");
      await c.query(
        `CREATE DATABASE ${escapeId(names.database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
      );
      try {
        await c.query("CREATE USER ?@? IDENTIFIED BY ?", [names.username, anyHost, password]);
        await c.query(`GRANT ALL PRIVILEGES ON ${escapeId(grantPattern(names.database))}.* TO ?@?`, [
          names.username,
          anyHost,
        ]);
      } catch (error) {
        undone = await this.undo(c, names);
        throw error;
      }
    }, names.database).catch((error) => {
      throw undone ? error : markLeftSomething(error);
    });
  }

  async drop(names: DatabaseNames): Promise<void> {
    await this.session(async (c) => {
      await c.query("DROP USER IF EXISTS ?@?", [names.username, anyHost]);
      const { escapeId } = await import("mysql2/promise");
      await c.query(`DROP DATABASE IF EXISTS ${escapeId(names.database)}`);
    });
  }

  async setPassword(names: DatabaseNames, password: string): Promise<void> {
    await this.session(async (c) => {
      await c.query("ALTER USER ?@? IDENTIFIED BY ?", [names.username, anyHost, password]);
    });
  }

  /** On the same connection; whether both went (the caller reports the first failure). */
  private async undo(c: Connection, names: DatabaseNames): Promise<boolean> {
    const { escapeId } = await import("mysql2/promise");
    try {
      await c.query("DROP USER IF EXISTS ?@?", [names.username, anyHost]);
      await c.query(`DROP DATABASE IF EXISTS ${escapeId(names.database)}`);
      return true;
    } catch {
      return false;
    }
  }

  /** One connection for one piece of work, closed after it; every failure becomes a clear error. */
  private async session<T>(work: (c: Connection) => Promise<T>, database?: string): Promise<T> {
    const mysql = await import("mysql2/promise");
    let connection: Connection | undefined;
    try {
      connection = await mysql.createConnection({
        host: this.access.host,
        port: this.access.port,
        user: this.access.username,
        password: this.access.password,
        connectTimeout: connectTimeoutMs,
        multipleStatements: false,
      });
      await connection.query({ sql: "SELECT 1", timeout: statementTimeoutMs });
      return await work(connection);
    } catch (error) {
      throw hostError(this.access.name, error, database);
    } finally {
      await connection?.end().catch(() => connection?.destroy());
    }
  }
}
