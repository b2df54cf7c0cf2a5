import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseServers, queryAs, startDatabaseServers } from "../support/database-servers.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { freePort } from "../support/free-port.ts";
import { panelSecretBox, setServerScopes, withPanelDb } from "../support/panel-db.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * Issue 36, databases: hosts kept by administrators, a server's databases made on real MariaDB and
 * PostgreSQL, each with a user that reaches it and nothing else.
 */
describe("database hosts and servers' databases", () => {
  const panel = usePanel();
  const serverA = "db5e0a01";
  const serverB = "db5e0b02";
  const member = newUser("dbmember");
  let servers: DatabaseServers;
  let admin: PanelClient;
  let memberApi: PanelClient;
  const hostIds = { mysql: 0, postgres: 0 };
  const mysqlPassword = "maria-panel-pw-5d";

  const hostBody = (type: "mysql" | "postgres", over: Record<string, unknown> = {}) =>
    type === "mysql"
      ? {
          name: "maria",
          type,
          host: "127.0.0.1",
          port: servers.mariadb.port,
          username: "panel",
          password: mysqlPassword,
          ...over,
        }
      : {
          name: "pg",
          type,
          host: "127.0.0.1",
          port: servers.postgres.port,
          username: "postgres",
          password: servers.postgres.password,
          ...over,
        };
  const asRoot = (type: "mysql" | "postgres", statement: string) =>
    type === "mysql"
      ? queryAs({ type, port: servers.mariadb.port, user: "root", password: "" }, statement)
      : queryAs(
          { type, port: servers.postgres.port, user: "postgres", password: servers.postgres.password },
          statement,
        );
  const databasesOnHost = async (type: "mysql" | "postgres", prefix: string) =>
    (type === "mysql"
      ? await asRoot(type, "SHOW DATABASES")
      : await asRoot(type, 'SELECT datname AS "Database" FROM pg_database')
    )
      .map((r) => String((r as { Database: string }).Database))
      .filter((n) => n.startsWith(prefix));
  const usersOnHost = async (type: "mysql" | "postgres", prefix: string) =>
    (type === "mysql"
      ? await asRoot(type, "SELECT User AS name FROM mysql.user")
      : await asRoot(type, "SELECT rolname AS name FROM pg_roles")
    )
      .map((r) => String((r as { name: string }).name))
      .filter((n) => n.startsWith(prefix));

  beforeAll(async () => {
    servers = await startDatabaseServers();
    // The panel's own account on MariaDB, as an administrator would make it.
    await asRoot("mysql", `CREATE USER 'panel'@'%' IDENTIFIED BY '${mysqlPassword}'`);
    await asRoot("mysql", "GRANT ALL PRIVILEGES ON *.* TO 'panel'@'%' WITH GRANT OPTION");
    admin = await adminClient(panel());
    memberApi = await registeredClient(panel(), member);
    for (const id of [serverA, serverB]) {
      const made = await admin.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 });
      expect(made.status, made.text).toBe(200);
    }
  }, 120_000);
  afterAll(async () => {
    await servers?.stop();
  });

  it("keeps hosts for administrators, the password sealed and never answered", async () => {
    const mysqlHost = await admin.post("/api/database-hosts", hostBody("mysql", { password: "wrong" }));
    expect(mysqlHost.status, mysqlHost.text).toBe(200);
    hostIds.mysql = mysqlHost.body.id;
    const pgHost = await admin.post("/api/database-hosts", hostBody("postgres"));
    expect(pgHost.status, pgHost.text).toBe(200);
    hostIds.postgres = pgHost.body.id;
    expect(pgHost.body).toMatchObject({
      type: "postgres",
      password: "",
      passwordSet: true,
      nodes: null,
      databases: 0,
    });
    const list = await admin.get("/api/database-hosts");
    expect(list.text).not.toContain(servers.postgres.password);
    expect(list.body).toHaveLength(2);
    expectError(
      await admin.post("/api/database-hosts", hostBody("postgres")),
      409,
      "ErrDatabaseHostNameTaken",
    );
    expectError(
      await admin.post("/api/database-hosts", hostBody("mysql", { name: "x", password: "" })),
      400,
      "ErrFieldRequired",
    );
    expectError(
      await admin.post("/api/database-hosts", hostBody("mysql", { name: "y", host: "a b;--" })),
      400,
      "ErrFieldInvalid",
    );
    expectError(await memberApi.get("/api/database-hosts"), 403, "ErrMissingScope", { scope: "admin" });
    expectError(
      await memberApi.post("/api/database-hosts", hostBody("mysql", { name: "z" })),
      403,
      "ErrMissingScope",
    );
  });

  it("tests a host and says what failed: wrong password, refused", async () => {
    expectError(await admin.post(`/api/database-hosts/${hostIds.mysql}/test`), 502, "ErrDatabaseHostAuth");
    // Saved back without a password, the stored (wrong) one stays; then the right one.
    const kept = await admin.put(`/api/database-hosts/${hostIds.mysql}`, hostBody("mysql", { password: "" }));
    expect(kept.status, kept.text).toBe(200);
    expectError(await admin.post(`/api/database-hosts/${hostIds.mysql}/test`), 502, "ErrDatabaseHostAuth");
    const changed = await admin.put(`/api/database-hosts/${hostIds.mysql}`, hostBody("mysql"));
    expect(changed.status, changed.text).toBe(200);
    const good = await admin.post(`/api/database-hosts/${hostIds.mysql}/test`);
    expect(good.status, good.text).toBe(200);
    expect(good.body.version).toMatch(/MariaDB/);
    const pgGood = await admin.post(`/api/database-hosts/${hostIds.postgres}/test`);
    expect(pgGood.status, pgGood.text).toBe(200);
    const closed = await admin.post(
      "/api/database-hosts",
      hostBody("postgres", { name: "gone", port: await freePort() }),
    );
    const refused = await admin.post(`/api/database-hosts/${closed.body.id}/test`);
    expectError(refused, 502, "ErrDatabaseHostRefused", { host: "gone" });
    expect((await admin.delete(`/api/database-hosts/${closed.body.id}`)).status).toBe(204);
    // A host that takes the connection and never speaks: the short connect timeout says so.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const mute = await admin.post("/api/database-hosts", hostBody("mysql", { name: "mute", port }));
      expectError(
        await admin.post(`/api/database-hosts/${mute.body.id}/test`),
        504,
        "ErrDatabaseHostTimeout",
      );
      expect((await admin.delete(`/api/database-hosts/${mute.body.id}`)).status).toBe(204);
    } finally {
      silent.close();
    }
  }, 30_000);

  it("refuses a database until an administrator sets the server's limit", async () => {
    const refused = await admin.post(`/api/servers/${serverA}/databases`, {
      host: hostIds.mysql,
      name: "world",
    });
    expectError(refused, 409, "ErrDatabaseLimit", { limit: 0 });
    for (const id of [serverA, serverB])
      expect((await admin.put(`/api/servers/${id}/limits`, { databaseLimit: 6 })).status).toBe(200);
    expectError(
      await admin.post(`/api/servers/${serverA}/databases`, { host: hostIds.mysql, name: "bad-name;" }),
      400,
      "ErrDatabaseNameInvalid",
    );
    expectError(
      await admin.post(`/api/servers/${serverA}/databases`, { host: hostIds.mysql, name: "x".repeat(49) }),
      400,
      "ErrDatabaseNameInvalid",
    );
  });

  for (const type of ["mysql", "postgres"] as const) {
    describe(`on ${type === "mysql" ? "MariaDB" : "PostgreSQL"}`, () => {
      const port = () => (type === "mysql" ? servers.mariadb.port : servers.postgres.port);
      const made: Record<string, { id: number; name: string; username: string; password: string }> = {};

      it("makes the database and a user whose credentials connect to it", async () => {
        for (const [server, name] of [
          [serverA, "world"],
          [serverA, "a_b"],
          [serverA, "aXb"],
          [serverB, "world"],
        ]) {
          const res = await admin.post(`/api/servers/${server}/databases`, { host: hostIds[type], name });
          expect(res.status, res.text).toBe(200);
          expect(res.body).toMatchObject({ name: `s${server}_${name}`, state: "ready" });
          expect(res.body.url).toBe(
            `${type}://${res.body.username}:${res.body.password}@127.0.0.1:${port()}/s${server}_${name}`,
          );
          expect(res.body.jdbc).toBe(
            `jdbc:${type === "mysql" ? "mysql" : "postgresql"}://127.0.0.1:${port()}/s${server}_${name}`,
          );
          made[`${server}/${name}`] = res.body;
        }
        const world = made[`${serverA}/world`];
        const login = {
          type,
          port: port(),
          user: world.username,
          password: world.password,
          database: world.name,
        };
        await queryAs(login, "CREATE TABLE players (name VARCHAR(16))");
        await queryAs(login, "INSERT INTO players VALUES ('alex')");
        expect(await queryAs(login, "SELECT name FROM players")).toEqual([{ name: "alex" }]);
      });

      it("lets a user reach only its own database", async () => {
        const world = made[`${serverA}/world`];
        const as = (database: string, who = world) =>
          queryAs(
            { type, port: port(), user: who.username, password: who.password, database },
            "SELECT 1 AS one",
          );
        await expect(as(made[`${serverB}/world`].name)).rejects.toThrow(/denied/i);
        // `_` is a wildcard in MySQL's grants: a_b's user must not reach aXb.
        await expect(as(made[`${serverA}/aXb`].name, made[`${serverA}/a_b`])).rejects.toThrow(/denied/i);
        await expect(as(made[`${serverA}/a_b`].name, made[`${serverA}/a_b`])).resolves.toHaveLength(1);
      });

      it("rotates the password: the old one fails, the new one connects", async () => {
        const world = made[`${serverA}/world`];
        const res = await admin.post(`/api/servers/${serverA}/databases/${world.id}/rotate-password`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.password).not.toBe(world.password);
        const login = { type, port: port(), user: world.username, database: world.name };
        await expect(queryAs({ ...login, password: world.password }, "SELECT 1")).rejects.toThrow();
        await expect(
          queryAs({ ...login, password: res.body.password }, "SELECT 1 AS one"),
        ).resolves.toHaveLength(1);
        world.password = res.body.password;
      });

      it("a name taken on the host fails and leaves nothing on either side", async () => {
        await asRoot(type, `CREATE DATABASE s${serverB}_taken`);
        const before = await usersOnHost(type, `u${serverB}_`);
        expectError(
          await admin.post(`/api/servers/${serverB}/databases`, { host: hostIds[type], name: "taken" }),
          409,
          "ErrDatabaseExists",
        );
        expect(await usersOnHost(type, `u${serverB}_`)).toEqual(before);
        expect(
          (await admin.get(`/api/servers/${serverB}/databases`)).body.databases.map(
            (d: { name: string }) => d.name,
          ),
        ).not.toContain(`s${serverB}_taken`);
        await asRoot(type, `DROP DATABASE s${serverB}_taken`);
      });

      it("deletes: the database and its user are gone", async () => {
        for (const key of [`${serverA}/a_b`, `${serverA}/aXb`]) {
          const res = await admin.delete(`/api/servers/${serverA}/databases/${made[key].id}`);
          expect(res.status, res.text).toBe(204);
        }
        expect(await databasesOnHost(type, `s${serverA}_a`)).toEqual([]);
        const gone = made[`${serverA}/a_b`];
        expect(await usersOnHost(type, gone.username)).toEqual([]);
        await expect(
          queryAs({ type, port: port(), user: gone.username, password: gone.password }, "SELECT 1"),
        ).rejects.toThrow();
      });

      it("a create cut short by a crash is listed as unfinished, and deleting it drops what the host holds", async () => {
        // As a panel that died between CREATE DATABASE and CREATE USER leaves it.
        const name = `s${serverA}_crashed`;
        await asRoot(type, `CREATE DATABASE ${name}`);
        await withPanelDb(panel(), (db) =>
          db
            .insertInto("server_databases")
            .values({
              server_id: serverA,
              host_id: hostIds[type],
              name,
              username: `u${serverA}_crashed`,
              password: panelSecretBox(panel()).seal("never-used"),
              state: "creating",
              created_at: Date.now(),
            })
            .execute(),
        );
        const listed = (await admin.get(`/api/servers/${serverA}/databases`)).body.databases;
        const entry = listed.find((d: { name: string }) => d.name === name);
        expect(entry.state).toBe("creating");
        expectError(
          await admin.post(`/api/servers/${serverA}/databases/${entry.id}/rotate-password`),
          404,
          "ErrDatabaseNotFound",
        );
        expect((await admin.delete(`/api/servers/${serverA}/databases/${entry.id}`)).status).toBe(204);
        expect(await databasesOnHost(type, name)).toEqual([]);
      });
    });
  }

  it("an unreachable host fails cleanly and leaves no row", async () => {
    const gone = await admin.post(
      "/api/database-hosts",
      hostBody("mysql", { name: "down", port: await freePort() }),
    );
    const before = (await admin.get(`/api/servers/${serverB}/databases`)).body.databases.length;
    const res = await admin.post(`/api/servers/${serverB}/databases`, { host: gone.body.id, name: "lost" });
    expectError(res, 502, "ErrDatabaseHostRefused", { host: "down" });
    expect((await admin.get(`/api/servers/${serverB}/databases`)).body.databases).toHaveLength(before);
    expect((await admin.delete(`/api/database-hosts/${gone.body.id}`)).status).toBe(204);
  });

  it("tells a server user the host's error code, not its words, which name the panel's account on it; an administrator both", async () => {
    // A host account that may not create databases: MariaDB's refusal names it and the panel's address.
    await asRoot("mysql", "CREATE USER 'weakpanel'@'%' IDENTIFIED BY 'weak-panel-pw-5d'");
    const weak = await admin.post(
      "/api/database-hosts",
      hostBody("mysql", { name: "weak", username: "weakpanel", password: "weak-panel-pw-5d" }),
    );
    expect(weak.status, weak.text).toBe(200);
    await setServerScopes(panel(), member.email, serverB, ["server.view", "server.databases.create"]);
    const url = `/api/servers/${serverB}/databases`;
    const refused = await memberApi.post(url, { host: weak.body.id, name: "weakone" });
    expectError(refused, 502, "ErrDatabaseHostPrivileges", {
      host: "weak",
      reason: "ER_DBACCESS_DENIED_ERROR",
    });
    expect(refused.text).not.toContain("weakpanel");
    const asAdmin = await admin.post(url, { host: weak.body.id, name: "weakone" });
    expectError(asAdmin, 502, "ErrDatabaseHostPrivileges", { host: "weak" });
    expect(asAdmin.body.error.metadata.reason).toContain("weakpanel");
    expect((await admin.delete(`/api/database-hosts/${weak.body.id}`)).status).toBe(204);
  });

  it("keeps a host to its nodes and its most databases, and picks one when none is named", async () => {
    const node = await admin.post("/api/nodes", {
      name: "elsewhere",
      publicHost: "play.example.com",
      publicPort: 8443,
      privateHost: "10.0.0.5",
      privatePort: 8080,
      sftpPort: 5657,
    });
    expect(node.status, node.text).toBe(200);
    const other = await admin.post(
      "/api/database-hosts",
      hostBody("mysql", { name: "other-node", nodes: [node.body.id] }),
    );
    expect(other.body.nodes).toEqual([node.body.id]);
    expectError(
      await admin.post(`/api/servers/${serverB}/databases`, { host: other.body.id, name: "n" }),
      409,
      "ErrDatabaseHostNotForNode",
    );
    const list = await admin.get(`/api/servers/${serverB}/databases`);
    expect(list.body.hosts.map((h: { name: string }) => h.name)).not.toContain("other-node");
    const full = await admin.put(
      `/api/database-hosts/${hostIds.mysql}`,
      hostBody("mysql", { maxDatabases: 2 }),
    );
    expect(full.body.databases).toBe(2);
    expectError(
      await admin.post(`/api/servers/${serverB}/databases`, { host: hostIds.mysql, name: "more" }),
      409,
      "ErrDatabaseHostFull",
    );
    // Unnamed, the first host with room that serves the node: the PostgreSQL one.
    const picked = await admin.post(`/api/servers/${serverB}/databases`, { name: "picked" });
    expect(picked.status, picked.text).toBe(200);
    expect(picked.body.host.id).toBe(hostIds.postgres);
    await admin.put(`/api/database-hosts/${hostIds.mysql}`, hostBody("mysql", { maxDatabases: null }));
    expect((await admin.delete(`/api/database-hosts/${other.body.id}`)).status).toBe(204);
    expect((await admin.delete(`/api/nodes/${node.body.id}`)).status).toBeLessThan(300);
  });

  it("refuses each scope's route without it, and shows passwords only with view.password", async () => {
    const base = ["server.view"];
    const set = (scopes: string[]) => setServerScopes(panel(), member.email, serverA, [...base, ...scopes]);
    const url = `/api/servers/${serverA}/databases`;
    const world = (await admin.get(url)).body.databases.find((d: { name: string }) =>
      d.name.endsWith("_world"),
    );
    await set([]);
    expectError(await memberApi.get(url), 403, "ErrMissingScope", { scope: "server.databases.view" });
    expectError(await memberApi.post(url, { name: "m" }), 403, "ErrMissingScope", {
      scope: "server.databases.create",
    });
    expectError(await memberApi.post(`${url}/${world.id}/rotate-password`), 403, "ErrMissingScope", {
      scope: "server.databases.rotate",
    });
    expectError(await memberApi.delete(`${url}/${world.id}`), 403, "ErrMissingScope", {
      scope: "server.databases.delete",
    });
    await set(["server.databases.view"]);
    const seen = await memberApi.get(url);
    expect(seen.status, seen.text).toBe(200);
    const entry = seen.body.databases.find((d: { id: number }) => d.id === world.id);
    expect(entry).toMatchObject({ name: world.name, username: world.username });
    expect(entry.password).toBeUndefined();
    expect(seen.text).not.toContain(world.password);
    expect(entry.url).toBe(
      `${entry.host.type}://${world.username}@127.0.0.1:${entry.host.port}/${world.name}`,
    );
    await set(["server.databases.view", "server.databases.view.password", "server.databases.rotate"]);
    expect(
      (await memberApi.get(url)).body.databases.find((d: { id: number }) => d.id === world.id).password,
    ).toBe(world.password);
    const rotated = await memberApi.post(`${url}/${world.id}/rotate-password`);
    expect(rotated.status, rotated.text).toBe(200);
    // Another server's database is not reached through this one's URL.
    const ofB = (await admin.get(`/api/servers/${serverB}/databases`)).body.databases[0];
    await set(["server.databases.delete"]);
    expectError(await memberApi.delete(`${url}/${ofB.id}`), 404, "ErrDatabaseNotFound");
  });

  it("stores every password sealed", async () => {
    const stored = await withPanelDb(panel(), async (db) => [
      ...(await db.selectFrom("database_hosts").select("password").execute()),
      ...(await db.selectFrom("server_databases").select("password").execute()),
    ]);
    expect(stored.length).toBeGreaterThan(2);
    for (const { password } of stored) expect(password).toMatch(/^sealed:v1:/);
  });

  it("keeps no password in the activity log", async () => {
    const log = await admin.get("/api/activity?limit=200");
    expect(log.status, log.text).toBe(200);
    expect(log.text).toContain("database.create");
    expect(log.text).toContain("databasehost.create");
    for (const secret of [mysqlPassword, servers.postgres.password]) expect(log.text).not.toContain(secret);
    const { databases } = (await admin.get(`/api/servers/${serverA}/databases`)).body;
    for (const d of databases) expect(log.text).not.toContain(d.password);
  });

  it("deleting a server drops its databases; a host with databases cannot be deleted until then", async () => {
    const held = (await admin.get(`/api/servers/${serverB}/databases`)).body.databases;
    expect(held.length).toBeGreaterThan(0);
    expectError(await admin.delete(`/api/database-hosts/${hostIds.postgres}`), 409, "ErrDatabaseHostInUse");
    const res = await admin.delete(`/api/servers/${serverB}`);
    expect(res.status, res.text).toBeLessThan(300);
    for (const type of ["mysql", "postgres"] as const) {
      expect(await databasesOnHost(type, `s${serverB}_`)).toEqual([]);
      expect(await usersOnHost(type, `u${serverB}_`)).toEqual([]);
    }
    await admin.delete(`/api/servers/${serverA}`);
    expect(
      (await admin.get("/api/database-hosts")).body.every((h: { databases: number }) => h.databases === 0),
    ).toBe(true);
    expect((await admin.delete(`/api/database-hosts/${hostIds.postgres}`)).status).toBe(204);
  });

  it("a host gone for good is forgotten with ?forget=true, and its servers can then be deleted", async () => {
    const serverC = "db5e0c03";
    expect((await admin.put(`/api/servers/${serverC}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
    expect((await admin.put(`/api/servers/${serverC}/limits`, { databaseLimit: 1 })).status).toBe(200);
    const doomed = await admin.post("/api/database-hosts", hostBody("mysql", { name: "doomed" }));
    expect(doomed.status, doomed.text).toBe(200);
    const made = await admin.post(`/api/servers/${serverC}/databases`, {
      host: doomed.body.id,
      name: "kept",
    });
    expect(made.status, made.text).toBe(200);
    try {
      // The host goes away: it now answers nowhere.
      const moved = await admin.put(`/api/database-hosts/${doomed.body.id}`, {
        ...hostBody("mysql", { name: "doomed", port: await freePort() }),
        password: "",
      });
      expect(moved.status, moved.text).toBe(200);
      expectError(await admin.delete(`/api/servers/${serverC}`), 502, "ErrDatabaseHostRefused", {
        host: "doomed",
      });
      expectError(await admin.delete(`/api/database-hosts/${doomed.body.id}`), 409, "ErrDatabaseHostInUse", {
        count: 1,
      });
      expectError(
        await memberApi.delete(`/api/database-hosts/${doomed.body.id}?forget=true`),
        403,
        "ErrMissingScope",
        { scope: "admin" },
      );
      expect((await admin.delete(`/api/database-hosts/${doomed.body.id}?forget=true`)).status).toBe(204);
      expect((await admin.get(`/api/servers/${serverC}/databases`)).body.databases).toEqual([]);
      const deleted = await admin.delete(`/api/servers/${serverC}`);
      expect(deleted.status, deleted.text).toBeLessThan(300);
      // Nothing was dropped: the database is still on the host the panel could no longer reach.
      expect(await databasesOnHost("mysql", `s${serverC}_`)).toEqual([`s${serverC}_kept`]);
    } finally {
      await asRoot("mysql", `DROP DATABASE IF EXISTS s${serverC}_kept`);
    }
  });
});
