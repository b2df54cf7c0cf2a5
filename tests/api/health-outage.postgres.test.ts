import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PanelClient } from "../support/http-client.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitUntil } from "../support/poll.ts";
import { startRelay, type TcpRelay } from "../support/tcp-relay.ts";

// PostgreSQL only (vitest.config.ts runs *.postgres.test.ts in the api-postgres project alone):
// the database is cut at a TCP relay in front of it.
const onPostgres = process.env.OUTPOST_TEST_DB === "postgres";

describe.runIf(onPostgres)("GET /api/health when the database goes away", () => {
  let relay: TcpRelay;
  let panel: PanelProcess;
  let dropDatabase = async () => {};

  beforeAll(async () => {
    // The panel reaches PostgreSQL through a relay the test can cut.
    const clusterUrl = new URL(inject("postgresUrl"));
    const name = `t_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: clusterUrl.href });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: clusterUrl.href });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
    relay = await startRelay(Number(clusterUrl.port));
    const viaRelay = new URL(clusterUrl.href);
    viaRelay.port = String(relay.port);
    viaRelay.pathname = `/${name}`;
    panel = await startPanel({ databaseUrl: viaRelay.href });
  });
  afterAll(async () => {
    await panel?.stop();
    await relay?.close();
    await dropDatabase();
  });

  it("answers 503 ErrDatabaseUnreachable in the API's envelope while the database cannot be reached, 200 once it can", async () => {
    const client = new PanelClient(panel.url);
    expect((await client.get("/api/health")).status).toBe(200);
    relay.cut();
    const down = await client.get("/api/health");
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      error: { code: "ErrDatabaseUnreachable", msg: "this panel cannot reach its database" },
    });
    expect(down.text).not.toMatch(/ECONN|at .*\.ts/);
    relay.restore();
    await waitUntil(async () => (await client.get("/api/health")).status === 200, 15_000, 100);
  });
});
