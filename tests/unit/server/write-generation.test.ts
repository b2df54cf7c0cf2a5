import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type OpenedDatabase, openDatabase } from "../../../server/db/database.ts";
import { ReadCache } from "../../../server/db/read-cache.ts";
import { WriteGeneration, writeGeneration } from "../../../server/db/write-generation.ts";
import { waitUntil } from "../../support/poll.ts";

let dir: string;
let opened: OpenedDatabase;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-generation-"));
  opened = openDatabase({ dataDir: dir });
  await sql`create table items (id integer primary key, name text)`.execute(opened.db);
});
afterEach(async () => {
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const items = () => opened.db as unknown as Kysely<{ items: { id: number; name: string } }>;

it("moves with every write and every commit of this process, not with reads", async () => {
  const generation = writeGeneration(opened.db);
  expect(generation.enabled).toBe(true);
  const before = generation.current();
  await items().selectFrom("items").selectAll().execute();
  expect(generation.current()).toBe(before);
  await items().insertInto("items").values({ id: 1, name: "one" }).execute();
  const afterInsert = generation.current();
  expect(afterInsert).toBeGreaterThan(before);
  await items()
    .transaction()
    .execute(async (trx) => {
      const inside = generation.current();
      await trx.selectFrom("items").selectAll().execute();
      expect(generation.current()).toBe(inside);
    });
  // Even a transaction that only read ends with a commit, which counts.
  expect(generation.current()).toBeGreaterThan(afterInsert);
});

it("sees a commit by another connection to the file (the `outpost user` command)", async () => {
  const generation = writeGeneration(opened.db);
  const before = generation.current();
  const other = new SQLite(path.join(dir, "outpost.db"));
  other.prepare("insert into items (id, name) values (2, 'two')").run();
  other.close();
  // data_version is read at most once a millisecond: the commit shows on a read soon after.
  await waitUntil(async () => generation.current() > before, 5000, 1);
});

it("keeps nothing that was read before a write finished", async () => {
  const cache = new ReadCache<string>(writeGeneration(opened.db));
  const stamp = cache.begin();
  await items().insertInto("items").values({ id: 3, name: "three" }).execute();
  cache.set("k", "read before the insert", stamp);
  expect(cache.get("k")).toBeUndefined();
  expect(await cache.through("k", async () => "fresh")).toBe("fresh");
  expect(cache.get("k")).toBe("fresh");
  await items().deleteFrom("items").where("id", "=", 3).execute();
  expect(cache.get("k")).toBeUndefined();
});

it("keeps nothing while disabled, nor what was read before it was disabled or enabled again", () => {
  // PostgreSQL's: disabled while the listener is not connected (write-notifications.ts).
  const generation = new WriteGeneration(false);
  const cache = new ReadCache<string>(generation);
  cache.set("k", "read while blind", cache.begin());
  expect(cache.get("k")).toBeUndefined();
  const blind = cache.begin();
  generation.enable();
  cache.set("k", "read before listening", blind);
  expect(cache.get("k")).toBeUndefined();
  cache.set("k", "kept", cache.begin());
  expect(cache.get("k")).toBe("kept");
  const before = cache.begin();
  generation.disable();
  expect(cache.get("k")).toBeUndefined();
  generation.enable();
  // Read before the loss: another panel's commit may have gone unheard meanwhile.
  expect(cache.get("k")).toBeUndefined();
  cache.set("k", "read before the loss", before);
  expect(cache.get("k")).toBeUndefined();
});

it("does not move with writes to the activity log, which no kept answer is read from", async () => {
  await sql`create table activity (id integer primary key, action text)`.execute(opened.db);
  const log = opened.db as unknown as Kysely<{ activity: { id: number; action: string } }>;
  const generation = writeGeneration(opened.db);
  const before = generation.current();
  await log.insertInto("activity").values({ id: 1, action: "auth.login" }).execute();
  await log.deleteFrom("activity").where("id", "<", 5).execute();
  expect(generation.current()).toBe(before);
  // Any other table still counts.
  await items().insertInto("items").values({ id: 9, name: "nine" }).execute();
  expect(generation.current()).toBeGreaterThan(before);
});
