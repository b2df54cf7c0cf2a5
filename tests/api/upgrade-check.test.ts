import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { scratchPostgresDatabase } from "../support/postgres-database.ts";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/outpost.mjs");
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

/**
 * Issue 42: a newer panel says what it changes for this installation before it migrates, and
 * `outpost upgrade check` says the same alone. Here the database says 0.2.0 last opened it and the
 * local node holds a server whose user-editable value sits inside `sh -c`, refused since 0.2.0.
 */
describe("the upgrade report", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-upgrade-"));
  // On PostgreSQL (the api-postgres project) a database of the test's own, dropped after.
  const postgresUrl = process.env.OUTPOST_TEST_DB === "postgres" ? inject("postgresUrl") : undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    if (postgresUrl) database = await scratchPostgresDatabase(postgresUrl, "t_upgrade_check");
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const outpost = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      encoding: "utf8",
      env: { ...process.env, OUTPOST_DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "" },
      timeout: 60_000,
    });

  it("names what changes and the servers that will not start, before migrating, and once", async () => {
    expect(outpost("--version").stdout.trim()).toBe(`outpost ${version}`);
    const made = outpost(
      "user",
      "add",
      "--email",
      "old@example.com",
      "--username",
      "olduser",
      "--password",
      "old-pass-1",
    );
    expect(made.status, made.stderr).toBe(0);
    // What a 0.2.0 panel left: its version, a server row and the local node's definition of it.
    const opened = openDatabase({ databaseUrl: database?.url, dataDir });
    await opened.db
      .updateTable("settings")
      .set({ value: JSON.stringify("0.2.0") })
      .where("key", "=", "outpost.openedWithVersion")
      .execute();
    await opened.db
      .insertInto("servers")
      .values({
        id: "0ld5he11",
        name: "Old shell server",
        node_id: 0,
        ip: "",
        port: 0,
        type: "test",
        icon: "",
        created_at: 0,
      })
      .execute();
    await opened.close();
    const servers = path.join(dataDir, "node", "servers");
    fs.mkdirSync(servers, { recursive: true });
    const definition = echoDefinition({
      run: { command: `sh -c 'echo \${motd}'`, stop: "stop" },
    });
    fs.writeFileSync(path.join(servers, "0ld5he11.json"), JSON.stringify({ ...definition, id: "0ld5he11" }));
    fs.writeFileSync(
      path.join(servers, "900dd00d.json"),
      JSON.stringify({ ...echoDefinition(), id: "900dd00d" }),
    );

    const check = outpost("upgrade", "check");
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toContain(`Upgrading Outpost from 0.2.0 to ${version}:`);
    // The changelog's notes of the releases after 0.2.0, not of 0.2.0 itself.
    expect(check.stdout).toContain("0.3.0: A `/api/live` socket");
    expect(check.stdout).not.toContain("ErrSandboxUnavailable");
    expect(check.stdout).toContain("1 server of the local node will not start");
    expect(check.stdout).toMatch(
      /Old shell server \(0ld5he11\): variable motd: may not go into a shell script/,
    );
    expect(check.stdout).not.toContain("900dd00d");

    // The check changed nothing: the next start (here `migrate`) tells the same, then records the version.
    const migrated = outpost("migrate");
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.stderr).toContain("Old shell server (0ld5he11)");
    const after = outpost("upgrade", "check");
    expect(after.stdout.trim()).toBe(
      `Outpost ${version}: nothing to tell for this installation (last opened by ${version})`,
    );
  });
});
