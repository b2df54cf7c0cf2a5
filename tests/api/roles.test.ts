import { beforeAll, describe, expect, it } from "vitest";
import { currentOtp } from "../../server/panel/otp.ts";
import { createEchoServer } from "../support/echo-server.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";
import { SoftwareAuthenticator } from "../support/webauthn-authenticator.ts";

const serverId = "201e0001";

/** Whether a promise settled within a short while (for "still open" checks). */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
  ]);
}

describe("roles", () => {
  const panel = usePanel();
  let admin: PanelClient;

  /** A registered user, signed in, and their id. */
  async function someone(tag: string) {
    const user = newUser(tag);
    const api = await registeredClient(panel(), user);
    const id: number = (await api.get("/api/self")).body.id;
    return { user, api, id };
  }

  beforeAll(async () => {
    admin = await adminClient(panel());
    await createEchoServer(admin, serverId, { name: "Role world" });
  });

  it("administrators define, change and delete roles; families are spelt out", async () => {
    const made = await admin.post("/api/roles", { name: "Node operator", scopes: ["nodes.*"] });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ name: "Node operator", require2fa: false, users: 0 });
    expect([...made.body.scopes].sort()).toEqual(
      ["nodes.create", "nodes.delete", "nodes.deploy", "nodes.edit", "nodes.view"].sort(),
    );
    expectError(await admin.post("/api/roles", { name: "Node operator", scopes: [] }), 409, "ErrRoleExists");
    for (const scope of ["admin", "login", "server.console", "nonsense", "nope.*"])
      expectError(
        await admin.post("/api/roles", { name: `Bad ${scope}`, scopes: [scope] }),
        400,
        "ErrFieldInvalid",
        {
          field: "scopes",
          scope,
        },
      );
    const edited = await admin.put(`/api/roles/${made.body.id}`, {
      name: "Node watcher",
      scopes: ["nodes.view"],
      require2fa: true,
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ name: "Node watcher", scopes: ["nodes.view"], require2fa: true });
    const list = await admin.get("/api/roles");
    expect(list.body.map((r: { name: string }) => r.name)).toContain("Node watcher");
    expect((await admin.delete(`/api/roles/${made.body.id}`)).status).toBe(204);
    expectError(await admin.delete(`/api/roles/${made.body.id}`), 404, "ErrRoleNotFound");
    expectError(
      await admin.put(`/api/roles/${made.body.id}`, { name: "x", scopes: [] }),
      404,
      "ErrRoleNotFound",
    );
  });

  it("a user's global scopes are their own and their roles', added and removed at once", async () => {
    const support = await admin.post("/api/roles", {
      name: "Support",
      scopes: ["users.info.view", "nodes.view"],
    });
    expect(support.status, support.text).toBe(200);
    const { api, id } = await someone("support");
    // Before: no reach.
    expect((await api.get("/api/nodes")).status).toBe(403);
    expect((await api.get(`/api/users/${id}`)).status).toBe(403);
    const set = await admin.put(`/api/users/${id}/roles`, { roles: [support.body.id] });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ roles: [support.body.id] });
    expect((await admin.get(`/api/users/${id}/roles`)).body).toEqual({ roles: [support.body.id] });
    // At once, for the session already open (reads and writes alike).
    expect((await api.get("/api/nodes")).status).toBe(200);
    expect((await api.get(`/api/users/${id}`)).status).toBe(200);
    expect((await api.get("/api/self")).body.scopes ?? []).not.toContain("admin");
    // The user's own scopes stay their own; roles are not written into them.
    const own = await admin.get(`/api/users/${id}/perms`);
    expect(own.body.scopes).not.toContain("nodes.view");
    // Changing the role changes what its users hold.
    expect(
      (await admin.put(`/api/roles/${support.body.id}`, { name: "Support", scopes: ["users.info.view"] }))
        .status,
    ).toBe(200);
    expect((await api.get("/api/nodes")).status).toBe(403);
    expect((await api.get(`/api/users/${id}`)).status).toBe(200);
    // Taking the role away takes its scopes.
    expect((await admin.put(`/api/users/${id}/roles`, { roles: [] })).status).toBe(200);
    expect((await api.get(`/api/users/${id}`)).status).toBe(403);
    expectError(await admin.put(`/api/users/${id}/roles`, { roles: [999999] }), 404, "ErrRoleNotFound");
    expectError(await admin.put("/api/users/999999/roles", { roles: [] }), 404, "ErrUserNotFound");
  });

  it("an open socket opened with a role's scope closes when the role loses it, and when the role goes", async () => {
    const watchers = await admin.post("/api/roles", { name: "Watchers", scopes: ["nodes.view"] });
    expect(watchers.status).toBe(200);
    // The socket comes from the user's own Viewer row on the server (a role holds no server
    // scopes); a global scope lost closes it, as a change of one's own global scopes does: what
    // was opened is opened again with what is left.
    const { api, id, user } = await someone("socket");
    expect(
      (
        await admin.put(`/api/servers/${serverId}/user/${encodeURIComponent(user.email)}`, {
          preset: "viewer",
        })
      ).status,
    ).toBe(204);
    expect((await admin.put(`/api/users/${id}/roles`, { roles: [watchers.body.id] })).status).toBe(200);
    const socket = await openServerSocket(api, serverId);
    // Gaining a scope closes nothing.
    expect(
      (
        await admin.put(`/api/roles/${watchers.body.id}`, {
          name: "Watchers",
          scopes: ["nodes.view", "templates.view"],
        })
      ).status,
    ).toBe(200);
    expect(await settledWithin(socket.closed, 300)).toBe(false);
    // Losing one closes it.
    expect(
      (
        await admin.put(`/api/roles/${watchers.body.id}`, {
          name: "Watchers",
          scopes: ["nodes.view"],
        })
      ).status,
    ).toBe(200);
    expect((await socket.closed).code).toBe(4001);
    const again = await openServerSocket(api, serverId);
    expect((await admin.delete(`/api/roles/${watchers.body.id}`)).status).toBe(204);
    expect((await again.closed).code).toBe(4001);
    expect((await api.get("/api/nodes")).status).toBe(403);
    const third = await openServerSocket(api, serverId);
    third.close();
  });

  it("a role that requires two-factor blocks everything but the account, enrolment and sign-out until enrolled", async () => {
    const strict = await admin.post("/api/roles", {
      name: "Strict",
      scopes: ["nodes.view"],
      require2fa: true,
    });
    expect(strict.status).toBe(200);
    const { api, id } = await someone("strict");
    expect((await api.get("/api/servers")).status).toBe(200);
    expect((await admin.put(`/api/users/${id}/roles`, { roles: [strict.body.id] })).status).toBe(200);
    // Everything else: 403 ErrTwoFactorRequired, reads and writes, the role's own scope included.
    expectError(await api.get("/api/servers"), 403, "ErrTwoFactorRequired");
    expectError(await api.get("/api/nodes"), 403, "ErrTwoFactorRequired");
    expectError(await api.get("/api/self/oauth2"), 403, "ErrTwoFactorRequired");
    expectError(await api.post("/api/self/oauth2", { name: "bot" }), 403, "ErrTwoFactorRequired");
    await expect(openServerSocket(api, serverId)).rejects.toThrow(/403/);
    // Their account and the enrolment answer.
    expect((await api.get("/api/self")).status).toBe(200);
    expect((await api.get("/api/self/otp")).status).toBe(200);
    const start = await api.post("/api/self/otp");
    expect(start.status, start.text).toBe(200);
    const confirm = await api.put("/api/self/otp", { token: currentOtp(start.body.secret) });
    expect(confirm.status, confirm.text).toBe(200);
    // Enrolled: the same session reaches what it holds.
    expect((await api.get("/api/servers")).status).toBe(200);
    expect((await api.get("/api/nodes")).status).toBe(200);
    expect((await api.post("/auth/logout")).status).toBeLessThan(300);
  });

  it("a passkey is the second factor a role requires: its enrolment is open, and it lets the account through", async () => {
    const strict = await admin.post("/api/roles", { name: "Strict passkey", scopes: [], require2fa: true });
    expect(strict.status).toBe(200);
    const { api, id } = await someone("strict-passkey");
    expect((await admin.put(`/api/users/${id}/roles`, { roles: [strict.body.id] })).status).toBe(200);
    expectError(await api.get("/api/servers"), 403, "ErrTwoFactorRequired");
    // A passkey is a second step after the password (sign-in.ts), so enrolling one is enrolment.
    expect((await api.get("/api/self/passkeys")).status).toBe(200);
    const options = await api.post("/api/self/passkeys/options");
    expect(options.status, options.text).toBe(200);
    const key = SoftwareAuthenticator.create();
    const added = await api.post("/api/self/passkeys", {
      name: "Phone",
      response: key.register(options.body, panel().url),
    });
    expect(added.status, added.text).toBe(200);
    // Enrolled: the same session reaches what it holds, without an app code.
    const servers = await api.get("/api/servers");
    expect(servers.status, servers.text).toBe(200);
    // Its only passkey removed, the account is held again.
    expect((await api.delete(`/api/self/passkeys/${added.body.id}`)).status).toBe(204);
    expectError(await api.get("/api/servers"), 403, "ErrTwoFactorRequired");
    // Renaming and removing are not enrolment: held until enrolled.
    expectError(
      await api.put(`/api/self/passkeys/${added.body.id}`, { name: "x" }),
      403,
      "ErrTwoFactorRequired",
    );
    expect((await admin.delete(`/api/roles/${strict.body.id}`)).status).toBe(204);
  });

  it("refuses every roles route to a user without admin", async () => {
    const { api, id } = await someone("plain");
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/roles"],
      ["POST", "/api/roles", { name: "Mine", scopes: [] }],
      ["PUT", "/api/roles/1", { name: "Mine", scopes: [] }],
      ["DELETE", "/api/roles/1"],
      ["GET", `/api/users/${id}/roles`],
      ["PUT", `/api/users/${id}/roles`, { roles: [] }],
    ];
    for (const [method, path, json] of routes)
      expectError(await api.call(method, path, { json }), 403, "ErrMissingScope", { scope: "admin" });
  });
  // Last: the administrator enrols in it here.
  it("the panel-wide setting requires two-factor of every account, administrators too; sign-out still works", async () => {
    const { api } = await someone("everyone");
    expect((await admin.put("/api/settings/panel.security.require2fa", { value: true })).status).toBe(204);
    expectError(await api.get("/api/servers"), 403, "ErrTwoFactorRequired");
    expect((await api.get("/api/self")).status).toBe(200);
    expect((await api.post("/auth/logout")).status).toBeLessThan(300);
    expect((await api.get("/api/self")).status).toBe(401);
    // The administrator has no two-factor either: held to it as well, until enrolled.
    expectError(
      await admin.put("/api/settings/panel.security.require2fa", { value: false }),
      403,
      "ErrTwoFactorRequired",
    );
    const start = await admin.post("/api/self/otp");
    expect(start.status, start.text).toBe(200);
    expect((await admin.put("/api/self/otp", { token: currentOtp(start.body.secret) })).status).toBe(200);
    expect((await admin.put("/api/settings/panel.security.require2fa", { value: false })).status).toBe(204);
  });
});
