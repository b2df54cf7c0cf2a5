import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, type OpenedDatabase, openDatabase } from "../../../server/db/database.ts";
import { migrations } from "../../../server/db/migrations/index.ts";

/** The names databases already record as run: renaming one would run it again on them. */
const shipped = [
  "0001_accounts",
  "0002_nodes_and_servers",
  "0003_templates",
  "0004_backups",
  "0005_two_factor",
  "0006_servers_name_id",
  "0007_sealed_node_secrets",
  "0008_server_creations",
  "0009_write_notifications",
  "0010_template_authors",
  "0011_activity",
  "0012_notifications",
  "0013_shared_limits",
  "0014_backup_targets",
  "0015_server_transfers",
];

const folder = path.resolve(import.meta.dirname, "../../../server/db/migrations");

describe("migrations", () => {
  let dir = "";
  let opened: OpenedDatabase | undefined;
  afterEach(async () => {
    await opened?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every shipped name, listed in the order they run", async () => {
    const names = Object.keys(await migrations("sqlite").getMigrations());
    expect(names.slice(0, shipped.length)).toEqual(shipped);
    expect(names).toEqual([...names].sort());
  });

  it("has one file per migration, whose names sort in the order the migrations run", async () => {
    const names = Object.keys(await migrations("sqlite").getMigrations());
    const files = fs
      .readdirSync(folder)
      .filter((f) => /^\d{4}-/.test(f))
      .sort();
    expect(files.map((f) => f.replace(/\.ts$/, "").replaceAll("-", "_"))).toEqual(names);
  });

  it("records each name as run on a fresh database, and has nothing left to run after", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-migrations-"));
    opened = openDatabase({ dataDir: dir });
    expect(await migrate(opened)).toEqual(Object.keys(await migrations("sqlite").getMigrations()));
    const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      opened.db,
    );
    expect(recorded.rows.map((r) => r.name).slice(0, shipped.length)).toEqual(shipped);
    expect(await migrate(opened)).toEqual([]);
  });

  it("dates each migration as Date#toISOString does, and leaves toISOString as it was", async () => {
    const own = Date.prototype.toISOString;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-migrations-"));
    opened = openDatabase({ dataDir: dir });
    const before = Date.now();
    await migrate(opened);
    expect(Date.prototype.toISOString).toBe(own);
    const dated = await sql<{ timestamp: string }>`select timestamp from kysely_migration`.execute(opened.db);
    for (const { timestamp } of dated.rows) {
      expect(new Date(timestamp).toISOString()).toBe(timestamp);
      expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(before - 1);
    }
  });
});
