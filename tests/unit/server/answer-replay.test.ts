import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type OpenedDatabase, openDatabase } from "../../../server/db/database.ts";
import { writeGeneration } from "../../../server/db/write-generation.ts";
import { AnswerReplay, replayingServer } from "../../../server/http/answer-replay.ts";
import { CachedAnswers } from "../../../server/http/cached-answer.ts";
import type { Principal } from "../../../server/http/principal.ts";

/**
 * The replay in front of Fastify, on a real database and real HTTP: a route
 * answering a kept list, and a hook counting the requests that reach Fastify.
 */
let dir: string;
let opened: OpenedDatabase;
let app: FastifyInstance;
let url: string;
let reached: number;
let reachability: string;
/** Whether /list writes to the database between its access check and its answer, once. */
let writeFirst: boolean;
const live = new Set<string>();

const items = () => opened.db as unknown as Kysely<{ items: { id: number; name: string } }>;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-replay-"));
  opened = openDatabase({ dataDir: dir });
  await sql`create table items (id integer primary key, name text)`.execute(opened.db);
  await items().insertInto("items").values({ id: 1, name: "one" }).execute();
  reached = 0;
  reachability = "up";
  writeFirst = false;
  live.clear();
  live.add("alice").add("bob");

  const replay = new AnswerReplay(opened.db, (token) => live.has(token));
  app = Fastify({ serverFactory: replayingServer(replay) });
  app.addHook("onRequest", (request, _reply, done) => {
    reached++;
    const token = /auth=(\w+)/.exec(request.headers.cookie ?? "")?.[1];
    // The guard's principal: who, and the write generation that was checked at.
    if (token) request.principal = { token, readAt: writeGeneration(opened.db).current() } as Principal;
    done();
  });
  const lists = new CachedAnswers(opened.db, replay, { alsoOn: () => reachability });
  const list = () => items().selectFrom("items").selectAll().orderBy("id").execute();
  app.get("/list", async (request, reply) => {
    reply.header("x-frame-options", "DENY");
    if (writeFirst) {
      writeFirst = false;
      await items().insertInto("items").values({ id: 3, name: "three" }).execute();
    }
    return lists.send(reply, request.principal?.token ?? "", list);
  });
  app.get("/with-cookie", (_request, reply) => {
    reply.header("set-cookie", "seen=1");
    return lists.send(reply, "cookie", list);
  });
  url = await app.listen({ host: "127.0.0.1", port: 0 });
});

afterEach(async () => {
  await app.close();
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(pathname: string, headers: Record<string, string> = {}, method = "GET"): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .request(`${url}${pathname}`, { method, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on("error", reject)
      .end();
  });
}

const alice = { cookie: "auth=alice; theme=dark" };

/** Asks twice through Fastify (the answer is read, then kept and recorded). */
async function warm(pathname: string, headers: Record<string, string>): Promise<Got> {
  const first = await get(pathname, headers);
  await get(pathname, headers);
  return first;
}

it("answers a repeated request itself, with the status, headers and bytes the pipeline sent", async () => {
  const first = await warm("/list", alice);
  const before = reached;
  for (let i = 0; i < 3; i++) {
    const again = await get("/list", alice);
    expect(again.status).toBe(200);
    expect(again.body).toBe(first.body);
    const { date: _, ...headers } = again.headers;
    const { date: __, ...firstHeaders } = first.headers;
    expect(headers).toEqual(firstHeaders);
  }
  expect(reached).toBe(before);
  expect(JSON.parse(first.body)).toEqual([{ id: 1, name: "one" }]);
});

it("sends a request to Fastify once the database changed, or what the answer also depends on", async () => {
  await warm("/list", alice);
  await items().insertInto("items").values({ id: 2, name: "two" }).execute();
  let before = reached;
  const changed = await get("/list", alice);
  expect(reached).toBe(before + 1);
  expect(JSON.parse(changed.body)).toHaveLength(2);

  await get("/list", alice);
  before = reached;
  await get("/list", alice);
  expect(reached).toBe(before);
  reachability = "down";
  await get("/list", alice);
  expect(reached).toBe(before + 1);
});

it("never replays to another caller, another encoding, a session no longer live, a HEAD or a cookie", async () => {
  const own = await warm("/list", alice);
  let before = reached;
  for (const headers of [
    { cookie: "auth=bob; theme=dark" },
    { cookie: "auth=alice" },
    { ...alice, authorization: "Bearer alice" },
    { ...alice, "accept-encoding": "gzip" },
    { ...alice, "x-no-compression": "1" },
  ]) {
    await get("/list", headers);
    expect(reached, JSON.stringify(headers)).toBe(++before);
  }
  expect((await get("/list", alice)).body).toBe(own.body);
  expect(reached).toBe(before);

  expect((await get("/list", alice, "HEAD")).status).toBe(200);
  expect(reached).toBe(++before);

  await warm("/with-cookie", alice);
  before = reached;
  const withCookie = await get("/with-cookie", alice);
  expect(withCookie.headers["set-cookie"]).toEqual(["seen=1"]);
  expect(reached).toBe(++before);

  live.delete("alice");
  await get("/list", alice);
  expect(reached).toBe(++before);
});

it("keeps nothing that was answered after a write its access check did not see", async () => {
  writeFirst = true;
  await get("/list", alice);
  const before = reached;
  // Kept only now, from an answer whose check and list were read at the same generation.
  await get("/list", alice);
  expect(reached).toBe(before + 1);
  await get("/list", alice);
  expect(reached).toBe(before + 1);
});

it("keeps nothing for a request without a principal", async () => {
  await warm("/list", { cookie: "theme=dark" });
  const before = reached;
  await get("/list", { cookie: "theme=dark" });
  expect(reached).toBe(before + 1);
});
