import { beforeAll, describe, expect, it } from "vitest";
import { createEchoServer } from "../support/echo-server.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import type { PanelClient as Client } from "../support/http-client.ts";
import { setGlobalScopes, setServerScopes } from "../support/panel-db.ts";
import { admin, adminClient, PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

type Route = [method: string, path: string, scope: string, body?: unknown];

describe("users administration (/api/users)", () => {
  const panel = usePanel();
  let api: Client;
  let adminId: number;

  const signIn = async (user: { email: string; password: string }) => {
    const client = new PanelClient(panel().url);
    const res = await client.login(user.email, user.password);
    return { client, res };
  };
  const created = async (tag: string) => {
    const user = newUser(tag);
    const res = await api.post("/api/users", user);
    expect(res.status, res.text).toBe(200);
    return { ...user, id: res.body.id as number };
  };

  beforeAll(async () => {
    api = await adminClient(panel());
    adminId = (await api.get("/api/self")).body.id;
  });

  describe("who may call what (reference §2.5)", () => {
    let target: number;
    beforeAll(async () => {
      target = (await created("target")).id;
    });
    const routes = (): Route[] => [
      ["GET", "/api/users", "users.info.search"],
      ["POST", "/api/users", "users.info.edit", newUser("viaroute")],
      ["GET", `/api/users/${target}`, "users.info.view"],
      ["POST", `/api/users/${target}`, "users.info.edit", { username: "renamedbyroute" }],
      ["GET", `/api/users/${target}/perms`, "users.perms.view"],
      ["PUT", `/api/users/${target}/perms`, "users.perms.edit", { scopes: ["login"] }],
      ["DELETE", `/api/users/${target}`, "users.info.edit"],
    ];

    it("refuses anonymous callers with 401 and callers without the scope with 403", async () => {
      const anonymous = new PanelClient(panel().url);
      await anonymous.prime();
      const plain = await registeredClient(panel(), newUser("scopeless"));
      for (const [method, path, scope, body] of routes()) {
        expectError(await anonymous.call(method, path, { json: body }), 401, "ErrTokenInvalid");
        expectError(await plain.call(method, path, { json: body }), 403, "ErrMissingScope", { scope });
      }
    });

    it("each route needs its own scope: every other users scope is not enough", async () => {
      const user = newUser("almost");
      const client = await registeredClient(panel(), user);
      const all = [
        "users.info.search",
        "users.info.view",
        "users.info.edit",
        "users.perms.view",
        "users.perms.edit",
      ];
      for (const [method, path, scope, body] of routes()) {
        await setGlobalScopes(panel(), user.email, ["login", ...all.filter((s) => s !== scope)]);
        expectError(await client.call(method, path, { json: body }), 403, "ErrMissingScope", { scope });
      }
      // With its scope, the same call goes through (the target still exists: DELETE came last).
      await setGlobalScopes(panel(), user.email, ["login", "users.info.view"]);
      expect((await client.get(`/api/users/${target}`)).status).toBe(200);
    });
  });

  it("creates a user who can sign in, with a registered user's scopes and the password rules", async () => {
    const user = newUser("madebyadmin");
    const res = await api.post("/api/users", user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      username: user.username,
      email: user.email,
      otpActive: false,
    });
    // The reference grants nothing, leaving an account that cannot sign in; here it gets login.
    expect((await api.get(`/api/users/${res.body.id}/perms`)).body.scopes.sort()).toEqual([
      "login",
      "self.clients",
      "self.edit",
    ]);
    const { res: login } = await signIn(user);
    expect(login.status).toBe(200);
    expect(login.body.scopes).toContain("login");

    expectError(
      await api.post("/api/users", { ...newUser("short"), password: "1234567" }),
      400,
      "ErrPasswordRequirements",
    );
    expectError(
      await api.post("/api/users", { ...newUser("short"), username: "abc" }),
      400,
      "ErrFieldLength",
    );
    expectError(
      await api.post("/api/users", { ...newUser("bademail"), email: "nobody" }),
      400,
      "ErrFieldNotEmail",
    );
    expectError(
      await api.post("/api/users", { ...newUser("dup"), email: user.email }),
      409,
      "ErrUserExists",
      {
        field: "email",
      },
    );
    expectError(
      await api.post("/api/users", { ...newUser("dup"), username: user.username }),
      409,
      "ErrUserExists",
      {
        field: "username",
      },
    );
    expectError(await api.post("/api/users", { username: "missingmail" }), 400, "ErrFieldRequired");
  });

  it("lists users in the paging envelope, with username/email wildcards and limit", async () => {
    const tag = `pg${process.pid % 1000}x`;
    for (let i = 0; i < 3; i++) {
      const user = { ...newUser(`${tag}${i}`), email: `${tag}${i}@paging.example.com` };
      expect((await api.post("/api/users", user)).status).toBe(200);
    }
    const all = await api.get("/api/users");
    expect(all.status).toBe(200);
    expect(all.body.paging).toMatchObject({ page: 1, pageSize: 20, maxSize: 100 });
    expect(all.body.paging.total).toBeGreaterThanOrEqual(4);
    expect(all.body.users[0]).toEqual({
      id: expect.any(Number),
      username: expect.any(String),
      email: expect.any(String),
      otpActive: expect.any(Boolean),
    });

    const byName = await api.get(`/api/users?username=*${tag}*`);
    expect(
      byName.body.users
        .map((u: { username: string }) => u.username)
        .every((n: string) => n.startsWith(`user-${tag}`)),
    ).toBe(true);
    expect(byName.body.paging.total).toBe(3);
    // Case does not matter, and a bare text is the same search.
    expect((await api.get(`/api/users?username=${tag.toUpperCase()}`)).body.paging.total).toBe(3);
    expect((await api.get("/api/users?email=*@paging.example.com")).body.paging.total).toBe(3);
    expect((await api.get(`/api/users?username=*${tag}*&email=*${tag}1@*`)).body.users).toHaveLength(1);
    // LIKE's own wildcards are literal.
    expect((await api.get("/api/users?username=*%25*")).body.paging.total).toBe(0);

    const page1 = await api.get(`/api/users?username=*${tag}*&limit=2`);
    const page2 = await api.get(`/api/users?username=*${tag}*&limit=2&page=2`);
    expect(page1.body.users).toHaveLength(2);
    expect(page2.body.users).toHaveLength(1);
    expect(page2.body.paging).toEqual({ page: 2, pageSize: 2, maxSize: 100, total: 3 });
    expect((await api.get("/api/users?limit=1000")).body.paging.pageSize).toBe(100);
    expectError(await api.get("/api/users?page=0"), 400, "ErrFieldNotBetween");
  });

  it("reads and changes a user; a password set by an administrator ends the user's sessions", async () => {
    const user = await created("editme");
    expect((await api.get(`/api/users/${user.id}`)).body).toMatchObject({
      username: user.username,
      email: user.email,
    });
    expectError(await api.get("/api/users/999999"), 404, "ErrUserNotFound");

    const { client } = await signIn(user);
    expect((await client.get("/api/self")).status).toBe(200);
    const renamed = { username: `${user.username}r`, email: `r.${user.email}` };
    expect((await api.post(`/api/users/${user.id}`, renamed)).status).toBe(204);
    expect((await api.get(`/api/users/${user.id}`)).body).toMatchObject(renamed);
    expect((await client.get("/api/self")).status).toBe(200);

    expectError(
      await api.post(`/api/users/${user.id}`, { password: "short" }),
      400,
      "ErrPasswordRequirements",
    );
    expectError(await api.post(`/api/users/${user.id}`, { email: admin.email }), 409, "ErrUserExists");
    expect((await api.post(`/api/users/${user.id}`, { password: "a brand new password" })).status).toBe(204);
    expectError(await client.get("/api/self"), 401, "ErrTokenInvalid");
    expect((await signIn({ email: renamed.email, password: user.password })).res.status).toBe(400);
    expect((await signIn({ email: renamed.email, password: "a brand new password" })).res.status).toBe(200);
    // The administrator's own session is not one of them.
    expect((await api.get("/api/self")).status).toBe(200);
    expectError(await api.post("/api/users/999999", { username: "nobodyhere" }), 404, "ErrUserNotFound");
  });

  it("an administrator replaces global scopes; unknown scopes are dropped", async () => {
    const user = await created("scoped");
    const put = await api.put(`/api/users/${user.id}/perms`, {
      scopes: ["login", "nodes.view", "templates.view", "no.such.scope"],
    });
    expect(put.status).toBe(204);
    expect((await api.get(`/api/users/${user.id}/perms`)).body.scopes.sort()).toEqual([
      "login",
      "nodes.view",
      "templates.view",
    ]);
    const { client, res } = await signIn(user);
    expect(res.body.scopes.sort()).toEqual(["login", "nodes.view", "templates.view"]);
    expect((await client.get("/api/nodes")).status).toBe(200);
    expect((await client.get("/api/settings/panel.settings.companyName")).status).toBe(403);
    expectError(await api.get("/api/users/999999/perms"), 404, "ErrUserNotFound");
  });

  describe("an editor who is not an administrator", () => {
    let editor: { email: string; password: string; id: number };
    let client: Client;
    const editorScopes = [
      "login",
      "self.edit",
      "self.clients",
      "users.info.view",
      "users.info.edit",
      "users.perms.view",
      "users.perms.edit",
      "nodes.view",
    ];
    beforeAll(async () => {
      editor = await created("editor");
      await setGlobalScopes(panel(), editor.email, editorScopes);
      client = (await signIn(editor)).client;
    });

    it("toggles only the scopes they hold; the others stay as they were", async () => {
      const user = await created("toggled");
      await api.put(`/api/users/${user.id}/perms`, { scopes: ["login", "templates.view"] });
      // nodes.view is theirs to give; admin and settings.edit are not; templates.view is not theirs to take.
      const res = await client.put(`/api/users/${user.id}/perms`, {
        scopes: ["login", "nodes.view", "admin", "settings.edit"],
      });
      expect(res.status, res.text).toBe(204);
      expect((await api.get(`/api/users/${user.id}/perms`)).body.scopes.sort()).toEqual([
        "login",
        "nodes.view",
        "templates.view",
      ]);
    });

    it("cannot change or delete a user who reaches further than they do, nor re-scope an administrator", async () => {
      const stronger = await created("stronger");
      await api.put(`/api/users/${stronger.id}/perms`, { scopes: ["login", "settings.edit"] });
      expectError(
        await client.post(`/api/users/${stronger.id}`, { password: "taken over now" }),
        403,
        "ErrUserOutranks",
      );
      // Their scopes follow the toggling rule: what the editor holds goes, settings.edit stays.
      expect((await client.put(`/api/users/${stronger.id}/perms`, { scopes: [] })).status).toBe(204);
      expect((await api.get(`/api/users/${stronger.id}/perms`)).body.scopes).toEqual(["settings.edit"]);
      expectError(await client.put(`/api/users/${adminId}/perms`, { scopes: [] }), 403, "ErrUserOutranks");
      expectError(await client.delete(`/api/users/${stronger.id}`), 403, "ErrUserOutranks");
      expectError(
        await client.post(`/api/users/${adminId}`, { password: "taken over now" }),
        403,
        "ErrUserOutranks",
      );
      expectError(await client.delete(`/api/users/${adminId}`), 403, "ErrUserOutranks");

      // Reach on a server counts too: a user with a server the editor cannot touch is out of reach.
      const serverId = "05e70001";
      await createEchoServer(api, serverId, { name: "reach check" });
      const owner = await created("serverowner");
      await setServerScopes(panel(), owner.email, serverId, ["server.view", "server.console"]);
      expectError(
        await client.post(`/api/users/${owner.id}`, { password: "taken over now" }),
        403,
        "ErrUserOutranks",
      );
      await setServerScopes(panel(), editor.email, serverId, ["server.view", "server.console"]);
      expect((await client.post(`/api/users/${owner.id}`, { password: "taken over now" })).status).toBe(204);
      expect((await client.get(`/api/users/${owner.id}`)).status).toBe(200);
      await api.delete(`/api/servers/${serverId}`);
    });
  });

  it("nobody removes their own admin or deletes themselves; only administrators touch administrators", async () => {
    expectError(await api.put(`/api/users/${adminId}/perms`, { scopes: ["login"] }), 400, "ErrOwnAdmin");
    expectError(await api.delete(`/api/users/${adminId}`), 400, "ErrCannotDeleteSelf");
    expect((await api.get(`/api/users/${adminId}/perms`)).body.scopes).toContain("admin");

    // Another administrator may demote the first...
    const second = await created("secondadmin");
    await api.put(`/api/users/${second.id}/perms`, { scopes: ["admin"] });
    const other = (await signIn(second)).client;
    const editing = ["login", "users.info.edit", "users.perms.edit"];
    expect((await other.put(`/api/users/${adminId}/perms`, { scopes: editing })).status).toBe(204);
    // ...who, with the users scopes alone, can then neither demote nor delete an administrator.
    expectError(
      await api.put(`/api/users/${second.id}/perms`, { scopes: ["login"] }),
      403,
      "ErrUserOutranks",
    );
    expectError(await api.delete(`/api/users/${second.id}`), 403, "ErrUserOutranks");
    expect((await other.put(`/api/users/${adminId}/perms`, { scopes: ["admin"] })).status).toBe(204);
    expect((await api.delete(`/api/users/${second.id}`)).status).toBe(204);
  });

  it("two administrators demoting each other at once leave one administrator", async () => {
    const a = await created("racea");
    const b = await created("raceb");
    await api.put(`/api/users/${a.id}/perms`, { scopes: ["admin"] });
    await api.put(`/api/users/${b.id}/perms`, { scopes: ["admin"] });
    await api.put(`/api/users/${adminId}/perms`, { scopes: ["admin"] });
    // The main admin steps aside: a and b are the only administrators left...
    const ca = (await signIn(a)).client;
    const cb = (await signIn(b)).client;
    expect((await ca.put(`/api/users/${adminId}/perms`, { scopes: ["login"] })).status).toBe(204);
    const [ra, rb] = await Promise.all([
      ca.put(`/api/users/${b.id}/perms`, { scopes: ["login"] }),
      cb.put(`/api/users/${a.id}/perms`, { scopes: ["login"] }),
    ]);
    // One wins; the other is refused, by the count of administrators (400) or, when it was already
    // demoted by the time its call was checked, for reaching an administrator (403).
    expect([ra.status, rb.status].filter((s) => s === 204)).toHaveLength(1);
    expect([ra.status, rb.status].filter((s) => s !== 204)[0]).toBeOneOf([400, 403]);
    const winner = ra.status === 204 ? ca : cb;
    expect((await winner.put(`/api/users/${adminId}/perms`, { scopes: ["admin"] })).status).toBe(204);
  });

  it("deleting a user ends their cookie session and their client tokens at once", async () => {
    const user = await created("deleteme");
    const { client } = await signIn(user);
    const made = await client.post("/api/self/oauth2", { name: "script" });
    expect(made.status, made.text).toBe(200);
    const granted = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
      form: {
        grant_type: "client_credentials",
        client_id: made.body.client_id,
        client_secret: made.body.client_secret,
      },
    });
    const bearer = granted.body.access_token as string;
    expect((await new PanelClient(panel().url).get("/api/self", { bearer })).status).toBe(200);

    expect((await api.delete(`/api/users/${user.id}`)).status).toBe(204);
    expectError(await client.get("/api/self"), 401, "ErrTokenInvalid");
    expectError(await new PanelClient(panel().url).get("/api/self", { bearer }), 401, "ErrTokenInvalid");
    const again = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
      form: {
        grant_type: "client_credentials",
        client_id: made.body.client_id,
        client_secret: made.body.client_secret,
      },
    });
    expect(again.status).not.toBe(200);
    expect((await signIn(user)).res.status).toBe(400);
    expectError(await api.get(`/api/users/${user.id}`), 404, "ErrUserNotFound");
    expectError(await api.delete(`/api/users/${user.id}`), 404, "ErrUserNotFound");
  });
});
