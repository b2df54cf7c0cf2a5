import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CompiledQueries } from "../../../server/db/compiled-queries.ts";

interface Db {
  items: { id: number; name: string };
}

let db: Kysely<Db>;
beforeEach(async () => {
  db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
  await db.schema.createTable("items").addColumn("id", "integer").addColumn("name", "text").execute();
  await db
    .insertInto("items")
    .values(Array.from({ length: 10 }, (_, i) => ({ id: i, name: `item ${i}` })))
    .execute();
});
afterEach(() => db.destroy());

it("builds a query once and runs it with each call's values", async () => {
  const queries = new CompiledQueries(db as unknown as Kysely<never>);
  let built = 0;
  const page = (from: number, limit: number) =>
    queries.rows("page", [from, limit], (min, max) => {
      built++;
      return db.selectFrom("items").select("name").where("id", ">=", min).orderBy("id").limit(max);
    });
  expect((await page(2, 2)).map((r) => r.name)).toEqual(["item 2", "item 3"]);
  expect((await page(7, 3)).map((r) => r.name)).toEqual(["item 7", "item 8", "item 9"]);
  // Once compiled, the shape's name is what counts: this builder is never called.
  const unused = (_min: number, _max: number) => db.selectFrom("items").select("name");
  expect(await queries.first("page", [9, 5], unused)).toEqual({ name: "item 9" });
  expect(built).toBe(1);
});

it("refuses a value that would be written into the SQL text rather than bound", async () => {
  const queries = new CompiledQueries(db as unknown as Kysely<never>);
  await expect(
    queries.rows("raw", ["item 1"], (name) =>
      db
        .selectFrom("items")
        .select("id")
        .where(sql<boolean>`name = ${sql.raw(`'${String(name)}'`)}`),
    ),
  ).rejects.toThrow(/not bound as a parameter/);
});
