import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate, openDatabase } from "../../server/db/database.ts";
import { unwatchedTables } from "../../server/db/write-notifications.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitUntil } from "../support/poll.ts";
import { adminClient, PanelClient } from "../support/test-panel.ts";

/**
 * Two panels on one PostgreSQL database, each keeping sessions and lists in
 * memory: whatever is written through one panel, or straight into the
 * database, drops what the other keeps, once its notification arrives
 * (server/db/write-notifications.ts). Hence "poll until": the notification
 * arrives a moment after the commit, never before.
 */
const onPostgres = process.env.OUTPOST_TEST_DB === "postgres";
const arrival = { timeoutMs: 5000, everyMs: 10 };
const until = (check: () => Promise<boolean>) => waitUntil(check, arrival.timeoutMs, arrival.everyMs);

describe.runIf(onPostgres)("panels sharing one PostgreSQL database", () => {
  let a: PanelProcess;
  let b: PanelProcess;
  let adminA: PanelClient;
  let adminB: PanelClient;
  /** A plain connection, as psql would write. */
  let direct: pg.Client;

  const listenerName = (panel: PanelProcess) => `outpost write listener ${panel.pid}`;
  const logCount = (panel: PanelProcess, text: string) => panel.logs().split(text).length - 1;
  const listening = (panel: PanelProcess) => logCount(panel, "answers are kept in memory");

  beforeAll(async () => {
    a = await startPanel({ postgresUrl: inject("postgresUrl") });
    b = await startPanel({ databaseUrl: a.databaseUrl });
    direct = new pg.Client({ connectionString: a.databaseUrl });
    await direct.connect();
    await until(async () => listening(a) === 1 && listening(b) === 1);
    adminA = await adminClient(a);
    adminB = await adminClient(b);
  });
  afterAll(async () => {
    await direct?.end();
    await b?.stop();
    // The first panel made the database and drops it.
    await a?.stop();
  });

  /** A user made through A with these global scopes, and a token of theirs signed in through A. */
  const userWith = async (tag: string, scopes: string[]) => {
    const user = newUser(tag);
    const res = await adminA.post("/api/users", user);
    expect(res.status, res.text).toBe(200);
    expect((await adminA.put(`/api/users/${res.body.id}/perms`, { scopes })).status).toBe(204);
    const client = new PanelClient(a.url);
    expect((await client.login(user.email, user.password)).status).toBe(200);
    return { user, id: res.body.id as number, client, token: client.cookies.get("outpost_auth") as string };
  };

  /** B's answer to the token, asked twice so that the second comes from B's memory. */
  const throughB = async (path: string, token: string) => {
    const onB = new PanelClient(b.url);
    expect((await onB.get(path, { bearer: token })).status).toBe(200);
    expect((await onB.get(path, { bearer: token })).status).toBe(200);
    return async (status: number) => (await onB.get(path, { bearer: token })).status === status;
  };

  const totalUsers = async (client: PanelClient) =>
    (await client.get("/api/users?limit=1")).body.paging.total;
  const insertUser = (tag: string) => {
    const user = newUser(tag);
    return `insert into users (username, email, password_hash, created_at)
      values ('${user.username}', '${user.email}', 'x', ${Date.now()})`;
  };

  it("gives every table the trigger that notifies its writes (but Kysely's own bookkeeping and the unwatched ones)", async () => {
    const { rows } = await direct.query(`
      select c.relname, exists (
        select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'outpost_notify_write'
      ) as notifies
      from pg_class c
      where c.relkind = 'r' and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())
        and c.relname not like 'kysely_migration%'`);
    expect(rows.length).toBeGreaterThan(10);
    // Tables no cached read depends on (logs, alert channels and claims, counters, leases) are left out on purpose.
    expect(
      rows
        .filter((r) => !r.notifies)
        .map((r) => r.relname)
        .sort(),
    ).toEqual([...unwatchedTables].sort());
  });

  it("gives a table that lost the trigger it back at the next migration run, and leaves others' tables alone", async () => {
    await direct.query("drop trigger outpost_notify_write on settings");
    await direct.query("create table another_application (id integer)");
    try {
      const opened = openDatabase({ databaseUrl: a.databaseUrl, dataDir: a.dataDir });
      try {
        await migrate(opened);
      } finally {
        await opened.close();
      }
      const { rows } = await direct.query(`
        select c.relname from pg_trigger g join pg_class c on c.oid = g.tgrelid
        where g.tgname = 'outpost_notify_write' and c.relname in ('settings', 'another_application')`);
      expect(rows).toEqual([{ relname: "settings" }]);
    } finally {
      await direct.query("drop table another_application");
    }
  });

  it("refuses through B a session logged out through A", async () => {
    const { client, token } = await userWith("logout", ["login"]);
    const refusedOnB = await throughB("/api/self", token);
    expect((await client.post("/auth/logout")).status).toBe(204);
    await until(() => refusedOnB(401));
  });

  it("refuses through B the other sessions of a user who changed password through A", async () => {
    const { user, client, token } = await userWith("password", ["login", "self.edit"]);
    const other = new PanelClient(a.url);
    expect((await other.login(user.email, user.password)).status).toBe(200);
    const refusedOnB = await throughB("/api/self", other.cookies.get("outpost_auth") as string);
    const changed = await client.put("/api/self", { password: user.password, newPassword: "brand-new-pass" });
    expect(changed.status, changed.text).toBe(204);
    await until(() => refusedOnB(401));
    // The session that changed it lives on, on both panels.
    expect((await new PanelClient(b.url).get("/api/self", { bearer: token })).status).toBe(200);
  });

  it("refuses through B a user deleted through A, and a scope removed through A", async () => {
    const gone = await userWith("deleted", ["login", "nodes.view"]);
    const goneOnB = await throughB("/api/nodes", gone.token);
    const kept = await userWith("scoped", ["login", "users.info.search"]);
    const keptOnB = await throughB("/api/users", kept.token);
    expect((await adminA.delete(`/api/users/${gone.id}`)).status).toBe(204);
    await until(() => goneOnB(401));
    expect((await adminA.put(`/api/users/${kept.id}/perms`, { scopes: ["login"] })).status).toBe(204);
    await until(() => keptOnB(403));
  });

  /** Runs SQL that no trigger sees (replica role): B keeps in memory what it replaced. */
  const unheard = async (statement: string, params: unknown[] = []) => {
    await direct.query("set session_replication_role = replica");
    try {
      await direct.query(statement, params);
    } finally {
      await direct.query("set session_replication_role = origin");
    }
  };

  it("authorises a write through B against the database, not what B keeps in memory", async () => {
    const editor = ["login", "users.info.search", "users.info.edit"];
    const out = await userWith("w-logout", editor);
    const gone = await userWith("w-deleted", editor);
    const demoted = await userWith("w-demoted", editor);
    for (const { token } of [out, gone, demoted]) await throughB("/api/users", token);
    const users = async () => Number((await direct.query("select count(*) as n from users")).rows[0].n);
    const before = await users();
    // Unheard: B's memory still holds all three sessions as they were.
    await unheard("delete from sessions where user_id = $1", [out.id]);
    await unheard("delete from users where id = $1", [gone.id]);
    await unheard("update permissions set scopes = 'login' where user_id = $1 and server_id = ''", [
      demoted.id,
    ]);
    const onB = new PanelClient(b.url);
    const create = (token: string, tag: string) => onB.post("/api/users", newUser(tag), { bearer: token });
    expect((await create(out.token, "w-by-out")).status).toBe(401);
    expect((await create(gone.token, "w-by-gone")).status).toBe(401);
    expect((await create(demoted.token, "w-by-demoted")).status).toBe(403);
    expect(await users()).toBe(before - 1);
  });

  it("answers from the database once its listener stalls, before it gives the connection up", async () => {
    const reader = await userWith("stall-logout", ["login", "users.info.search"]);
    const editor = await userWith("stall-demoted", ["login", "users.info.search", "users.info.edit"]);
    const readerOnB = await throughB("/api/users", reader.token);
    await throughB("/api/users", editor.token);
    const lost = logCount(b, "lost the connection that listens");
    const lapsed = logCount(b, "write notifications are not confirmed");
    const { rows } = await direct.query("select pid from pg_stat_activity where application_name = $1", [
      listenerName(b),
    ]);
    expect(rows).toHaveLength(1);
    // The listener's server process, frozen: its connection stays open but delivers nothing.
    process.kill(rows[0].pid, "SIGSTOP");
    try {
      expect((await reader.client.post("/auth/logout")).status).toBe(204);
      expect((await adminA.put(`/api/users/${editor.id}/perms`, { scopes: ["login"] })).status).toBe(204);
      // A write is refused at once ...
      const created = await new PanelClient(b.url).post("/api/users", newUser("stall-by-demoted"), {
        bearer: editor.token,
      });
      expect(created.status).toBe(403);
      // ... a read as soon as B's notifications are no longer known to be current, long before
      // B gives the connection up.
      await waitUntil(() => readerOnB(401), 20_000, arrival.everyMs);
      // The lapse is logged by the watch that noticed it, which on a busy machine may come a moment
      // after the answer that a cache gone stale by its age already refused.
      await waitUntil(async () => logCount(b, "write notifications are not confirmed") > lapsed, 20_000, 50);
      expect(logCount(b, "lost the connection that listens")).toBe(lost);
    } finally {
      process.kill(rows[0].pid, "SIGCONT");
    }
    // Whatever happens to the connection next (kept or made again), B keeps answers again.
    await until(async () => {
      const total = await totalUsers(adminB);
      await unheard(insertUser("after-stall"));
      return (await totalUsers(adminB)) === total;
    });
  });

  it("lists on B a server created through A", async () => {
    const ids = async () =>
      ((await adminB.get("/api/servers")).body.servers as { id: string }[]).map((s) => s.id);
    expect(await ids()).not.toContain("5ba12ed0");
    expect(await ids()).not.toContain("5ba12ed0");
    const created = await adminA.put("/api/servers/5ba12ed0", {
      ...echoDefinition(),
      name: "Shared",
      node: 0,
    });
    expect(created.status, created.text).toBe(200);
    await until(async () => (await ids()).includes("5ba12ed0"));
    expect((await adminA.delete("/api/servers/5ba12ed0")).status).toBe(204);
    await until(async () => !(await ids()).includes("5ba12ed0"));
  });

  it("drops B's kept list on a write made with plain SQL", async () => {
    const before = await totalUsers(adminB);
    expect(await totalUsers(adminB)).toBe(before);
    await direct.query(insertUser("plainsql"));
    await until(async () => (await totalUsers(adminB)) === before + 1);
  });

  it("answers from the database while its listener is down, and keeps answers again once it is back", async () => {
    const db = (await direct.query("select current_database() as name")).rows[0].name as string;
    // A write no trigger sees (replica role): only a panel that keeps nothing shows it at once.
    const unheardWrite = async (tag: string) => {
      await direct.query("set session_replication_role = replica");
      try {
        await direct.query(insertUser(tag));
      } finally {
        await direct.query("set session_replication_role = origin");
      }
    };
    const lost = logCount(b, "lost the connection that listens");
    const back = listening(b);
    // B's pool keeps the connections these calls open; the listener cannot reconnect while new ones are refused.
    let total = await totalUsers(adminB);
    expect(await totalUsers(adminB)).toBe(total);
    // Run from another database: a database cannot close its doors from inside.
    const cluster = new pg.Client({ connectionString: inject("postgresUrl") });
    await cluster.connect();
    await cluster.query(`alter database ${db} allow_connections false`);
    try {
      const ended = await direct.query(
        "select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1",
        [listenerName(b)],
      );
      expect(ended.rows).toEqual([{ ended: true }]);
      await until(async () => logCount(b, "lost the connection that listens") > lost);
      for (const tag of ["down1", "down2"]) {
        await unheardWrite(tag);
        total += 1;
        expect(await totalUsers(adminB)).toBe(total);
      }
    } finally {
      await cluster.query(`alter database ${db} allow_connections true`);
      await cluster.end();
    }
    // The next try comes after a wait that doubled while connections were refused.
    await waitUntil(async () => listening(b) > back, 20_000, arrival.everyMs);
    expect(await totalUsers(adminB)).toBe(total);
    expect(await totalUsers(adminB)).toBe(total);
    await unheardWrite("kept");
    // Kept in memory again: the unheard write does not show ...
    expect(await totalUsers(adminB)).toBe(total);
    // ... until a heard one drops the kept list.
    await direct.query(insertUser("heard"));
    await until(async () => (await totalUsers(adminB)) === total + 2);
  });

  it("finds a listener whose server stopped answering, and listens again once it answers", async () => {
    const lost = logCount(b, "lost the connection that listens");
    const back = listening(b);
    const { rows } = await direct.query("select pid from pg_stat_activity where application_name = $1", [
      listenerName(b),
    ]);
    expect(rows).toHaveLength(1);
    // The listener's server process, frozen: its connection stays open but says nothing (a network cut).
    process.kill(rows[0].pid, "SIGSTOP");
    try {
      await waitUntil(async () => logCount(b, "lost the connection that listens") > lost, 20_000, 50);
    } finally {
      process.kill(rows[0].pid, "SIGCONT");
    }
    await waitUntil(async () => listening(b) > back, 20_000, arrival.everyMs);
    const total = await totalUsers(adminB);
    await direct.query(insertUser("after-freeze"));
    await until(async () => (await totalUsers(adminB)) === total + 1);
  });
});
