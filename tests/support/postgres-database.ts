import { randomBytes } from "node:crypto";
import pg from "pg";

/** A database of its own in a test's PostgreSQL cluster: its URL, and how to drop it. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function run(clusterUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Makes a fresh database in the cluster at `clusterUrl` (a name of letters and digits only). */
export async function scratchPostgresDatabase(clusterUrl: string, prefix = "t"): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await run(clusterUrl, `CREATE DATABASE ${name}`);
  return {
    url: clusterUrl.replace(/\/[^/]*$/, `/${name}`),
    drop: () => run(clusterUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
