import { beforeAll, describe, expect, it } from "vitest";
import { builtInPresets } from "../../server/contract/scopes.ts";
import { createEchoServer } from "../support/echo-server.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import {
  adminClient,
  PanelClient as Client,
  type PanelClient,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const serverId = "9e5e0001";
const userPath = (email: string) => `/api/servers/${serverId}/user/${encodeURIComponent(email)}`;
const preset = (id: string) => builtInPresets.find((p) => p.id === id)?.scopes ?? [];
const sorted = (scopes: readonly string[]) => [...scopes].sort();

describe("permission presets", () => {
  const panel = usePanel();
  let admin: PanelClient;
  let plain: PanelClient;

  /** The scopes a user holds on the server, as its user list shows them. */
  async function scopesOf(email: string): Promise<string[]> {
    const res = await admin.get(userPath(email));
    expect(res.status, res.text).toBe(200);
    return sorted(res.body[0].scopes);
  }

  beforeAll(async () => {
    admin = await adminClient(panel());
    plain = await registeredClient(panel(), newUser("plain"));
    await createEchoServer(admin, serverId, { name: "Preset world" });
  });

  it("lists the four built-in presets first, to any signed-in user, and to no one else", async () => {
    const res = await plain.get("/api/permission-presets");
    expect(res.status, res.text).toBe(200);
    expect(res.body.slice(0, 4).map((p: { id: string }) => p.id)).toEqual([
      "viewer",
      "operator",
      "manager",
      "coowner",
    ]);
    for (const p of res.body.slice(0, 4)) {
      expect(p.builtIn).toBe(true);
      expect(sorted(p.scopes)).toEqual(sorted(preset(p.id)));
    }
    const viewer = res.body[0];
    expect(sorted(viewer.scopes)).toEqual(
      sorted(["server.view", "server.status", "server.stats", "server.console", "server.files.view"]),
    );
    // Each preset holds the one before it; none gives what stays with administrators.
    for (let i = 1; i < 4; i++)
      expect(res.body[i].scopes).toEqual(expect.arrayContaining(res.body[i - 1].scopes));
    for (const p of res.body.slice(0, 4))
      for (const kept of [
        "server.admin",
        "server.delete",
        "server.definition.edit",
        "server.data.edit.admin",
      ])
        expect(p.scopes).not.toContain(kept);
    const anonymous = new Client(panel().url);
    await anonymous.prime();
    expect((await anonymous.get("/api/permission-presets")).status).toBe(401);
  });

  it("a grant with a preset gives exactly its scopes", async () => {
    for (const id of ["viewer", "operator", "manager", "coowner"]) {
      const someone = newUser(`p${id}`);
      await registeredClient(panel(), someone);
      const put = await admin.put(userPath(someone.email), { preset: id });
      expect(put.status, put.text).toBe(204);
      expect(await scopesOf(someone.email)).toEqual(sorted(preset(id)));
    }
    const someone = newUser("pboth");
    await registeredClient(panel(), someone);
    expectError(await admin.put(userPath(someone.email), { preset: "nonesuch" }), 404, "ErrPresetNotFound");
    expectError(
      await admin.put(userPath(someone.email), { preset: "viewer", scopes: ["server.console"] }),
      400,
      "ErrFieldInvalid",
      { field: "preset" },
    );
    expect((await admin.get(userPath(someone.email))).status).toBe(404);
  });

  it("a Manager cannot grant more than they hold, by preset or by list, to others or to themselves", async () => {
    const manager = newUser("mgr");
    const managerApi = await registeredClient(panel(), manager);
    expect((await admin.put(userPath(manager.email), { preset: "manager" })).status).toBe(204);
    const friend = newUser("mgrfriend");
    await registeredClient(panel(), friend);
    // Co-owner asked: the Manager's own scopes are what the friend gets, nothing beyond.
    const put = await managerApi.put(userPath(friend.email), { preset: "coowner" });
    expect(put.status, put.text).toBe(204);
    expect(await scopesOf(friend.email)).toEqual(sorted(preset("manager")));
    const beyond = preset("coowner").filter((s) => !preset("manager").includes(s));
    expect(beyond).toContain("server.kill");
    const list = await managerApi.put(userPath(friend.email), {
      scopes: [...beyond, "server.admin", "server.console"],
    });
    expect(list.status, list.text).toBe(204);
    const after = await scopesOf(friend.email);
    for (const scope of [...beyond, "server.admin"]) expect(after).not.toContain(scope);
    expect(after).toContain("server.console");
    // Nor for themselves.
    expect((await managerApi.put(userPath(manager.email), { preset: "coowner" })).status).toBe(204);
    expect(await scopesOf(manager.email)).toEqual(sorted(preset("manager")));
    expect((await managerApi.post(`/api/servers/${serverId}/kill`)).status).toBe(403);
  });

  it("administrators define, change and delete their own presets; the built-in ones stay", async () => {
    const made = await admin.post("/api/permission-presets", {
      name: "Builders",
      scopes: ["server.files.edit", "server.console.send"],
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body.id).toBe("builders");
    // What each scope needs comes along, and server.view.
    expect(sorted(made.body.scopes)).toEqual(
      sorted([
        "server.view",
        "server.files.edit",
        "server.files.view",
        "server.console.send",
        "server.console",
      ]),
    );
    const again = await admin.post("/api/permission-presets", { name: "Builders", scopes: [] });
    expect(again.body.id).toBe("builders-2");
    expectError(
      await admin.post("/api/permission-presets", { id: "viewer", name: "Mine", scopes: [] }),
      409,
      "ErrPresetExists",
    );
    expectError(
      await admin.post("/api/permission-presets", { name: "Bad", scopes: ["nodes.view"] }),
      400,
      "ErrFieldInvalid",
      { field: "scopes", scope: "nodes.view" },
    );
    const listed = await plain.get("/api/permission-presets");
    expect(listed.body.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining(["viewer", "builders", "builders-2"]),
    );
    const someone = newUser("pcustom");
    await registeredClient(panel(), someone);
    expect((await admin.put(userPath(someone.email), { preset: "builders" })).status).toBe(204);
    expect(await scopesOf(someone.email)).toEqual(sorted(made.body.scopes));

    const edit = await admin.put("/api/permission-presets/builders", {
      name: "Builders",
      scopes: ["server.stats"],
    });
    expect(edit.status, edit.text).toBe(200);
    expect(sorted(edit.body.scopes)).toEqual(["server.stats", "server.view"]);
    // A preset is a way to choose: changing it later changes no one's rights.
    expect(await scopesOf(someone.email)).toEqual(sorted(made.body.scopes));

    for (const id of ["viewer", "operator", "manager", "coowner"]) {
      expectError(await admin.delete(`/api/permission-presets/${id}`), 400, "ErrPresetBuiltIn", {
        preset: id,
      });
      expectError(
        await admin.put(`/api/permission-presets/${id}`, { name: "x", scopes: [] }),
        400,
        "ErrPresetBuiltIn",
      );
    }
    expect((await admin.delete("/api/permission-presets/builders")).status).toBe(204);
    expectError(await admin.delete("/api/permission-presets/builders"), 404, "ErrPresetNotFound");
    expectError(await admin.put(userPath(someone.email), { preset: "builders" }), 404, "ErrPresetNotFound");
  });

  it("refuses every write route to a user without admin", async () => {
    expectError(
      await plain.post("/api/permission-presets", { name: "Sneaky", scopes: [] }),
      403,
      "ErrMissingScope",
      {
        scope: "admin",
      },
    );
    expectError(
      await plain.put("/api/permission-presets/builders-2", { name: "x", scopes: [] }),
      403,
      "ErrMissingScope",
    );
    expectError(await plain.delete("/api/permission-presets/builders-2"), 403, "ErrMissingScope");
    expect((await admin.get("/api/permission-presets")).body.map((p: { id: string }) => p.id)).toContain(
      "builders-2",
    );
  });
});
