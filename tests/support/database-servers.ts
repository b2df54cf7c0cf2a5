import mysql from "mysql2/promise";
import pg from "pg";
import { type MariaDb, startMariaDb } from "./mariadb.ts";
import { type PostgresCluster, startPostgres } from "./postgres-cluster.ts";

/**
 * A throw-away MariaDB and PostgreSQL (both from Debian) as database hosts for the panel, and a
 * way in as any user: what a game server's plugin does with the credentials the panel gave it.
 */
export interface DatabaseServers {
  mariadb: MariaDb;
  postgres: PostgresCluster & { port: number; password: string };
  stop(): Promise<void>;
}

export async function startDatabaseServers(): Promise<DatabaseServers> {
  const password = "pg-host-secret-7f3a";
  const [mariadb, cluster] = await Promise.all([startMariaDb(), startPostgres({ password })]);
  const postgres = { ...cluster, port: Number(new URL(cluster.url).port), password };
  return {
    mariadb,
    postgres,
    async stop() {
      await mariadb.stop();
      cluster.stop();
    },
  };
}

export interface Login {
  type: "mysql" | "postgres";
  port: number;
  user: string;
  password: string;
  database?: string;
}

/** Runs one statement as that user; rejects as the host refuses (sign-in or privileges). */
export async function queryAs(login: Login, statement: string): Promise<unknown[]> {
  if (login.type === "mysql") {
    const c = await mysql.createConnection({
      host: "127.0.0.1",
      port: login.port,
      user: login.user,
      password: login.password,
      database: login.database,
      connectTimeout: 5000,
    });
    try {
      return (await c.query(statement))[0] as unknown[];
    } finally {
      await c.end();
    }
  }
  const c = new pg.Client({
    host: "127.0.0.1",
    port: login.port,
    user: login.user,
    password: login.password,
    database: login.database ?? "postgres",
    connectionTimeoutMillis: 5000,
  });
  c.on("error", () => undefined);
  await c.connect();
  try {
    return (await c.query(statement)).rows;
  } finally {
    await c.end();
  }
}
