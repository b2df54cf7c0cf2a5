import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import type Pg from "pg";
import {
  connectTimeoutMs,
  type DatabaseEngine,
  type DatabaseNames,
  type HostAccess,
  hostError,
  markLeftSomething,
  statementTimeoutMs,
} from "./engine.ts";

/**
 * The password as PostgreSQL's SCRAM-SHA-256 verifier (RFC 5802; what `\password` sends): the
 * host stores the same thing it would make itself, and the plain password never reaches it, its
 * statement log or `pg_stat_activity`.
 */
export function scramVerifier(password: string, iterations = 4096): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

/**
 * PostgreSQL, through pg. Utility statements (CREATE ROLE, CREATE DATABASE) take no parameters, so
 * identifiers go through `escapeIdentifier` and the verifier through `escapeLiteral`; both are
 * values the panel made or checked against its strict patterns.
 */
export class PostgresEngine implements DatabaseEngine {
  constructor(private readonly access: HostAccess) {}

  async version(): Promise<string> {
    return await this.session(async (c) =>
      String((await c.query("SHOW server_version")).rows[0]?.server_version ?? ""),
    );
  }

  async create(names: DatabaseNames, password: string): Promise<void> {
    let undone = true;
    await this.session(async (c) => {
      const database = c.escapeIdentifier(names.database);
      const role = c.escapeIdentifier(names.username);
      await c.query(`CREATE DATABASE ${database}`);
      try {
        // Every role may connect to a new database unless told otherwise: only its owner may.
        await c.query(`REVOKE ALL ON DATABASE ${database} FROM PUBLIC`);
        await c.query(`CREATE ROLE ${role} LOGIN PASSWORD ${c.escapeLiteral(scramVerifier(password))}`);
        // A host account that is not a superuser (CREATEDB, CREATEROLE) must be a member of a
        // role to give it a database (PostgreSQL 16 and later no longer make it one).
        await c.query(`GRANT ${role} TO CURRENT_USER`);
        await c.query(`ALTER DATABASE ${database} OWNER TO ${role}`);
      } catch (error) {
        try {
          await c.query(`DROP DATABASE IF EXISTS ${database}`);
          await c.query(`DROP ROLE IF EXISTS ${role}`);
        } catch {
          undone = false;
        }
        throw error;
      }
    }, names.database).catch((error) => {
      throw undone ? error : markLeftSomething(error);
    });
  }

  async drop(names: DatabaseNames): Promise<void> {
    await this.session(async (c) => {
      // FORCE ends the game server's open sessions, which would otherwise hold the drop off.
      await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(names.database)} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(names.username)}`);
    });
  }

  async setPassword(names: DatabaseNames, password: string): Promise<void> {
    await this.session(async (c) => {
      await c.query(
        `ALTER ROLE ${c.escapeIdentifier(names.username)} PASSWORD ${c.escapeLiteral(scramVerifier(password))}`,
      );
    });
  }

  private async session<T>(work: (c: Pg.Client) => Promise<T>, database?: string): Promise<T> {
    const { default: pg } = await import("pg");
    const client = new pg.Client({
      host: this.access.host,
      port: this.access.port,
      user: this.access.username,
      password: this.access.password,
      database: "postgres",
      connectionTimeoutMillis: connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs,
    });
    // A host that drops the connection later must not take the panel down with an unhandled error.
    client.on("error", () => undefined);
    try {
      await client.connect();
      return await work(client);
    } catch (error) {
      throw hostError(this.access.name, error, database);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
