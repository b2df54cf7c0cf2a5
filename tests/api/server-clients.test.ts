import { beforeAll, describe, expect, it } from "vitest";
import { createEchoServer } from "../support/echo-server.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, expectNoInternals } from "../support/expect-api.ts";
import { setServerScopes } from "../support/panel-db.ts";
import {
  adminClient,
  type PanelClient as Client,
  PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const serverA = "c1a00001";
const serverB = "c1b00002";
const clients = (id: string) => `/api/servers/${id}/oauth2`;

const owner = { username: "client-owner", email: "client-owner@example.com", password: "owner-pass-1" };
const viewer = { username: "client-viewer", email: "client-viewer@example.com", password: "viewer-pass-1" };

describe("OAuth2 clients of one server", () => {
  const panel = usePanel();
  let admin: Client;
  let ownerApi: Client;
  let viewerApi: Client;
  /** A caller with nothing but a bearer token. */
  let bearer: Client;

  const tokenFor = async (client: { client_id: string; client_secret: string }) => {
    const res = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
      form: {
        grant_type: "client_credentials",
        client_id: client.client_id,
        client_secret: client.client_secret,
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.body as { access_token: string; scope: string };
  };

  beforeAll(async () => {
    admin = await adminClient(panel());
    ownerApi = await registeredClient(panel(), owner);
    viewerApi = await registeredClient(panel(), viewer);
    bearer = new PanelClient(panel().url);
    await createEchoServer(admin, serverA, { name: "Client world", users: [owner.username] });
    await createEchoServer(admin, serverB, { name: "Second world", users: [owner.username] });
    await setServerScopes(panel(), viewer.email, serverA, ["server.view"]);
  });

  describe("a client made by a server user", () => {
    let created: {
      client_id: string;
      client_secret: string;
      name: string;
      description: string;
      scopes: string[];
    };
    let token: string;

    it("is created with the secret shown once, and listed without it", async () => {
      const res = await ownerApi.post(clients(serverA), {
        name: "  Status bot ",
        description: "reads the console",
        scopes: ["server.console", "server.status"],
      });
      expect(res.status, res.text).toBe(200);
      created = res.body;
      expect(created).toEqual({
        client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{48}$/),
        name: "Status bot",
        description: "reads the console",
        scopes: ["server.view", "server.console", "server.status"],
      });
      const list = await ownerApi.get(clients(serverA));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        {
          client_id: created.client_id,
          name: "Status bot",
          description: "reads the console",
          scopes: ["server.view", "server.console", "server.status"],
        },
      ]);
      expect(list.text).not.toContain(created.client_secret);
      expect((await ownerApi.get(clients(serverB))).body).toEqual([]);
    });

    it("its token carries the client's scopes", async () => {
      const answer = await tokenFor(created);
      token = answer.access_token;
      expect(answer.scope).toBe("server.view server.console server.status");
    });

    it("works on its server with its scopes only", async () => {
      expect((await bearer.get(`/api/servers/${serverA}`, { bearer: token })).status).toBe(200);
      expect((await bearer.get(`/api/servers/${serverA}/status`, { bearer: token })).status).toBe(200);
      expect((await bearer.get(`/api/servers/${serverA}/console`, { bearer: token })).status).toBe(200);
      // The owner holds these on the server; the client was not given them.
      for (const [method, path, scope] of [
        ["GET", `/api/servers/${serverA}/stats`, "server.stats"],
        ["POST", `/api/servers/${serverA}/start`, "server.start"],
        ["GET", `/api/servers/${serverA}/oauth2`, "server.clients.view"],
        ["GET", `/api/servers/${serverA}/user`, "server.users.view"],
        ["GET", `/api/servers/${serverA}/data`, "server.data.view"],
      ]) {
        const res = await bearer.call(method, path, { bearer: token });
        expectError(res, 403, "ErrMissingScope", { scope });
      }
      expect((await ownerApi.get(`/api/servers/${serverA}/stats`)).status).toBe(200);
    });

    it("is refused on another server of its owner", async () => {
      expect((await ownerApi.get(`/api/servers/${serverB}`)).status).toBe(200);
      for (const path of [
        `/api/servers/${serverB}`,
        `/api/servers/${serverB}/status`,
        `/api/servers/${serverB}/console`,
      ]) {
        expect((await bearer.get(path, { bearer: token })).status, path).toBe(403);
      }
    });

    it("lists only its server", async () => {
      const mine = await ownerApi.get("/api/servers");
      expect(mine.body.servers.map((s: { id: string }) => s.id).sort()).toEqual([serverA, serverB].sort());
      const seen = await bearer.get("/api/servers", { bearer: token });
      expect(seen.status).toBe(200);
      expect(seen.body.servers.map((s: { id: string }) => s.id)).toEqual([serverA]);
      expect(seen.body.paging.total).toBe(1);
      expect(seen.body.servers[0].canGetStatus).toBe(true);
    });

    it("reads its own scopes, not its owner's, from ?perms", async () => {
      const view = await bearer.get(`/api/servers/${serverA}?perms`, { bearer: token });
      expect(view.status).toBe(200);
      expect([...view.body.permissions.scopes].sort()).toEqual(
        ["server.console", "server.status", "server.view"].sort(),
      );
    });

    it("is refused on every global route", async () => {
      for (const [method, path, body] of [
        ["GET", "/api/self"],
        ["PUT", "/api/self", { password: owner.password, username: "taken-over" }],
        ["GET", "/api/userSettings"],
        ["GET", "/api/nodes"],
        ["GET", "/api/templates"],
        ["GET", "/api/settings/panel.settings.companyName"],
        ["PUT", "/api/servers/c1c00003", { ...echoDefinition(), node: 0 }],
      ] as [string, string, unknown?][]) {
        const res = await bearer.call(method, path, { bearer: token, json: body });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
        expectNoInternals(res);
      }
      // Whether or not a users API exists yet, a server client never reaches it.
      expect([403, 404]).toContain((await bearer.get("/api/users", { bearer: token })).status);
      expect((await admin.get("/api/servers/c1c00003")).status).toBe(404);
      expect((await bearer.post("/auth/reauth", undefined, { bearer: token })).body).toEqual({ scopes: [] });
    });

    it("loses what its owner loses on the server", async () => {
      // The owner's console scope is taken away: the client's goes with it, its status stays.
      const ownerScopes = (await admin.get(`/api/servers/${serverA}/user/${owner.email}`)).body[0].scopes;
      await setServerScopes(
        panel(),
        owner.email,
        serverA,
        ownerScopes.filter((s: string) => s !== "server.console"),
      );
      expectError(
        await bearer.get(`/api/servers/${serverA}/console`, { bearer: token }),
        403,
        "ErrMissingScope",
      );
      expect((await bearer.get(`/api/servers/${serverA}/status`, { bearer: token })).status).toBe(200);
      // Removed from the server altogether: nothing is left.
      expect((await admin.delete(`/api/servers/${serverA}/user/${owner.email}`)).status).toBe(204);
      expect((await bearer.get(`/api/servers/${serverA}/status`, { bearer: token })).status).toBe(403);
      const listed = await bearer.get("/api/servers", { bearer: token });
      expect(listed.body.servers).toEqual([]);
      expect(listed.body.paging.total).toBe(0);
      await setServerScopes(panel(), owner.email, serverA, ownerScopes);
      expect((await bearer.get(`/api/servers/${serverA}/console`, { bearer: token })).status).toBe(200);
    });

    it("is deleted on its server only, and its tokens die with it", async () => {
      expectError(await admin.delete(`${clients(serverB)}/${created.client_id}`), 404, "ErrClientNotFound");
      expectError(await ownerApi.delete(`${clients(serverA)}/not-a-client`), 404, "ErrClientNotFound");
      expect((await ownerApi.delete(`${clients(serverA)}/${created.client_id}`)).status).toBe(204);
      expect((await ownerApi.get(clients(serverA))).body).toEqual([]);
      expect((await bearer.get(`/api/servers/${serverA}`, { bearer: token })).status).toBe(401);
      const again = await new PanelClient(panel().url).call("POST", "/oauth2/token", {
        form: {
          grant_type: "client_credentials",
          client_id: created.client_id,
          client_secret: created.client_secret,
        },
      });
      expect(again.status).toBe(401);
      expectError(
        await ownerApi.delete(`${clients(serverA)}/${created.client_id}`),
        404,
        "ErrClientNotFound",
      );
    });
  });

  it("a client of an administrator reaches its server only, with only its scopes", async () => {
    const res = await admin.post(clients(serverA), {
      name: "Deploy",
      scopes: ["server.definition.view", "server.delete"],
    });
    expect(res.status, res.text).toBe(200);
    const { access_token: token } = await tokenFor(res.body);
    // The administrator has no row on the server; the client still sees it.
    const seen = await bearer.get("/api/servers", { bearer: token });
    expect(seen.body.servers.map((s: { id: string }) => s.id)).toEqual([serverA]);
    expect((await bearer.get(`/api/servers/${serverA}/definition`, { bearer: token })).status).toBe(200);
    expect((await bearer.get(`/api/servers/${serverA}/flags`, { bearer: token })).status).toBe(403);
    expect((await bearer.get(`/api/servers/${serverB}/definition`, { bearer: token })).status).toBe(403);
    expect((await bearer.get("/api/nodes", { bearer: token })).status).toBe(403);
    expect((await bearer.get("/api/settings/panel.settings.companyName", { bearer: token })).status).toBe(
      403,
    );
    expect((await admin.delete(`${clients(serverA)}/${res.body.client_id}`)).status).toBe(204);
  });

  it("refuses scopes the creator does not hold there, unknown scopes and bad fields", async () => {
    expectError(
      await ownerApi.post(clients(serverA), { name: "x", scopes: ["server.console", "server.delete"] }),
      403,
      "ErrMissingScope",
      { scope: "server.delete" },
    );
    expectError(
      await ownerApi.post(clients(serverA), { name: "x", scopes: ["server.admin"] }),
      403,
      "ErrMissingScope",
    );
    for (const scope of ["admin", "nodes.view", "self.edit", "server.bogus"]) {
      expectError(
        await admin.post(clients(serverA), { name: "x", scopes: [scope] }),
        400,
        "ErrFieldInvalid",
        {
          field: "scopes",
          scope,
        },
      );
    }
    expectError(await ownerApi.post(clients(serverA), { name: "   ", scopes: [] }), 400, "ErrFieldRequired", {
      field: "name",
    });
    expectError(await ownerApi.post(clients(serverA), { scopes: [] }), 400, "ErrFieldRequired", {
      field: "name",
    });
    expectError(
      await ownerApi.post(clients(serverA), { name: "n".repeat(101), scopes: [] }),
      400,
      "ErrFieldLength",
      {
        field: "name",
        max: 100,
      },
    );
    expectError(
      await ownerApi.post(clients(serverA), { name: "ok", description: "d".repeat(4001), scopes: [] }),
      400,
      "ErrFieldLength",
      { field: "description", max: 4000 },
    );
    expectError(await ownerApi.post(clients(serverA), { name: "ok" }), 400, "ErrFieldRequired", {
      field: "scopes",
    });
    expect((await ownerApi.get(clients(serverA))).body).toEqual([]);
    // A name of exactly 100 and no description is fine; server.view is all it gets.
    const edge = await ownerApi.post(clients(serverA), { name: "n".repeat(100), scopes: [] });
    expect(edge.status, edge.text).toBe(200);
    expect(edge.body).toMatchObject({ description: "", scopes: ["server.view"] });
    expect((await ownerApi.delete(`${clients(serverA)}/${edge.body.client_id}`)).status).toBe(204);
  });

  it("refuses every call without its scope, anonymous calls, and missing servers", async () => {
    const made = await admin.post(clients(serverA), { name: "kept", scopes: [] });
    expect(made.status).toBe(200);
    expectError(await viewerApi.get(clients(serverA)), 403, "ErrMissingScope", {
      scope: "server.clients.view",
    });
    expectError(
      await viewerApi.post(clients(serverA), { name: "mine", scopes: [] }),
      403,
      "ErrMissingScope",
      {
        scope: "server.clients.create",
      },
    );
    expectError(
      await viewerApi.delete(`${clients(serverA)}/${made.body.client_id}`),
      403,
      "ErrMissingScope",
      {
        scope: "server.clients.delete",
      },
    );
    expectError(await viewerApi.get(clients(serverB)), 403, "ErrMissingScope");
    const nobody = new PanelClient(panel().url);
    await nobody.prime();
    expect((await nobody.get(clients(serverA))).status).toBe(401);
    expect((await nobody.post(clients(serverA), { name: "x", scopes: [] })).status).toBe(401);
    expect((await nobody.delete(`${clients(serverA)}/${made.body.client_id}`)).status).toBe(401);
    expectError(await admin.get(clients("0badf00d")), 404, "ErrServerNotFound");
    expectError(await admin.post(clients("0badf00d"), { name: "x", scopes: [] }), 404, "ErrServerNotFound");
    expect((await ownerApi.get(clients("0badf00d"))).status).toBe(403);
    expect((await admin.get(clients(serverA))).body.map((c: { name: string }) => c.name)).toEqual(["kept"]);
  });

  it("goes with its server", async () => {
    const made = await admin.post(clients(serverB), { name: "doomed", scopes: ["server.status"] });
    const { access_token: token } = await tokenFor(made.body);
    expect((await admin.delete(`/api/servers/${serverB}`)).status).toBe(204);
    expect((await bearer.get(`/api/servers/${serverB}/status`, { bearer: token })).status).toBe(401);
    expect((await bearer.get("/api/servers", { bearer: token })).status).toBe(401);
  });
});
