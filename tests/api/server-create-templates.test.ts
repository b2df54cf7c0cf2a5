import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { setServerScopes, withPanelDb } from "../support/panel-db.ts";
import { adminClient, type PanelClient as Client, PanelClient, usePanel } from "../support/test-panel.ts";

/**
 * What `server.create` allows (issue 22): an administrator creates a server from any definition;
 * anyone else creates it from a template as it is, one an administrator vouched for, choosing
 * only variable values, one of the template's environments, name, node and users.
 */
describe("servers created by non-administrators", () => {
  const panel = usePanel();
  let admin: Client;
  let creator: Client;
  let creatorEmail: string;
  let work: string;
  let serial = 0;
  const newId = () => `c4ea${String(++serial).padStart(4, "0")}`;

  /** The body the web client sends: the template as served, with its choices filled in. */
  const bodyFrom = async (repo: number, name: string, values: Record<string, unknown> = {}) => {
    const got = await admin.get(`/api/templates/${repo}/${name}`);
    expect(got.status, got.text).toBe(200);
    const { readme: _r, name: _n, limits: _l, ...definition } = got.body;
    const data = Object.fromEntries(
      Object.entries(definition.data as Record<string, object>).map(([k, v]) => [
        k,
        { ...v, value: k in values ? values[k] : (v as { value: unknown }).value },
      ]),
    );
    const environment = (definition.supportedEnvironments ?? [definition.environment])[0];
    return { ...definition, name: "made by a creator", node: 0, users: [], environment, data };
  };

  const create = (client: Client, body: object) => client.put(`/api/servers/${newId()}`, body);
  const refusedAsNotTemplate = (res: { status: number; body: { error?: { code: string } } }) => {
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe("ErrTemplateRequired");
  };

  beforeAll(async () => {
    admin = await adminClient(panel());
    const user = newUser("creator");
    creatorEmail = user.email;
    const made = await admin.post("/api/users", user);
    expect(made.status, made.text).toBe(200);
    const scopes = ["login", "server.create", "templates.view", "templates.local.edit"];
    expect((await admin.put(`/api/users/${made.body.id}/perms`, { scopes })).status).toBe(204);
    creator = new PanelClient(panel().url);
    expect((await creator.login(user.email, user.password)).status).toBe(200);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-vouched-"));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("creates from a starter template as it is, with the values the creator chose", async () => {
    const body = await bodyFrom(-1, "custom-command", { command: "./run.sh" });
    const id = newId();
    const res = await creator.put(`/api/servers/${id}`, body);
    expect(res.status, res.text).toBe(200);
    const stored = (await admin.get(`/api/servers/${id}/definition`)).body;
    expect(stored.run.command).toBe("${command}");
    expect(stored.data.command.value).toBe("./run.sh");
  });

  it("creates from a starter template shown in the creator's language", async () => {
    const got = await creator.call("GET", "/api/templates/-1/custom-command", {
      headers: { "accept-language": "ja-JP" },
    });
    expect(got.body.display).toBe("カスタムコマンド");
    const { readme: _r, name: _n, ...definition } = got.body;
    definition.data.command.value = "./run.sh";
    const res = await create(creator, { ...definition, name: "made in Japanese", node: 0, users: [] });
    expect(res.status, res.text).toBe(200);
  });

  it("refuses a starter template with its run command, install steps or stop command changed", async () => {
    const body = await bodyFrom(-1, "custom-command");
    refusedAsNotTemplate(await create(creator, { ...body, run: { ...body.run, command: "sh -c id" } }));
    refusedAsNotTemplate(
      await create(creator, { ...body, install: [{ type: "command", commands: ["sh -c id"] }] }),
    );
    refusedAsNotTemplate(await create(creator, { ...body, run: { ...body.run, stop: "${command}" } }));
    refusedAsNotTemplate(await create(creator, { ...body, requirements: { binaries: ["sh"] } }));
  });

  it("refuses an environment the template does not offer, a variable it lacks, and limits", async () => {
    const body = await bodyFrom(-1, "custom-command");
    const docker = {
      type: "docker",
      image: "alpine",
      networkName: "container:other",
      bindings: { "/": "/host" },
    };
    refusedAsNotTemplate(await create(creator, { ...body, environment: docker }));
    refusedAsNotTemplate(
      await create(creator, { ...body, data: { ...body.data, extra: { type: "string", value: "x" } } }),
    );
    refusedAsNotTemplate(await create(creator, { ...body, data: { command: { value: { nested: 1 } } } }));
    const limited = await create(creator, { ...body, limits: { memoryMiB: 64 } });
    expect(limited.status).toBe(403);
    expect(limited.body.error.code).toBe("ErrLimitsAdminOnly");
  });

  it("refuses any other definition from a non-administrator, and takes it from an administrator", async () => {
    refusedAsNotTemplate(await create(creator, { ...echoDefinition(), node: 0 }));
    const res = await create(admin, { ...echoDefinition(), node: 0 });
    expect(res.status, res.text).toBe(200);
  });

  it("creates from a local template an administrator wrote, not from one a non-administrator wrote", async () => {
    const adminWrote = await admin.put("/api/templates/0/echo-by-admin", echoDefinition());
    expect(adminWrote.status, adminWrote.text).toBe(204);
    const fromAdmins = await create(creator, await bodyFrom(0, "echo-by-admin", { motd: "hi" }));
    expect(fromAdmins.status, fromAdmins.text).toBe(200);

    // The creator may write local templates (templates.local.edit) but not then run them.
    const own = echoDefinition({ run: { command: "sh -c 'id; cat /etc/passwd'", stop: "stop" } });
    expect((await creator.put("/api/templates/0/echo-by-creator", own)).status).toBe(204);
    refusedAsNotTemplate(await create(creator, await bodyFrom(0, "echo-by-creator")));
    // Rewriting an administrator's template makes it the creator's.
    expect((await creator.put("/api/templates/0/echo-by-admin", own)).status).toBe(204);
    refusedAsNotTemplate(await create(creator, await bodyFrom(0, "echo-by-admin")));
    // An administrator may use either.
    expect((await create(admin, await bodyFrom(0, "echo-by-creator"))).status).toBe(200);
  });

  it("creates from a repository an administrator added, not from one a non-administrator added", async () => {
    const folder = path.join(work, "repo");
    fs.mkdirSync(path.join(folder, "echo"), { recursive: true });
    fs.writeFileSync(path.join(folder, "echo", "echo-repo.json"), JSON.stringify(echoDefinition()));
    const added = await admin.post("/api/templates", { name: "vouched", url: folder });
    expect(added.status, added.text).toBe(200);
    const body = await bodyFrom(added.body.id, "echo-repo");
    expect((await create(creator, body)).status).toBe(200);
    // As if a non-administrator had added it (templates.repo.create).
    await withPanelDb(panel(), (db) =>
      db.updateTable("template_repos").set({ by_admin: 0 }).where("id", "=", added.body.id).execute(),
    );
    refusedAsNotTemplate(await create(creator, body));
  });

  it("keeps a server's environment against a non-administrator's definition", async () => {
    const id = newId();
    expect((await admin.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
    await setServerScopes(panel(), creatorEmail, id, [
      "server.view",
      "server.definition.view",
      "server.definition.edit",
    ]);
    const stored = (await creator.get(`/api/servers/${id}/definition`)).body;
    const docker = { type: "docker", image: "alpine", networkName: "container:other" };
    const changed = await creator.put(`/api/servers/${id}/definition`, { ...stored, environment: docker });
    expect(changed.status).toBe(403);
    expect(changed.body.error.code).toBe("ErrEnvironmentAdminOnly");
    const { environment: _e, ...rest } = stored;
    expect((await creator.put(`/api/servers/${id}/definition`, { ...rest, display: "Kept" })).status).toBe(
      204,
    );
    const now = (await admin.get(`/api/servers/${id}/definition`)).body;
    expect(now.display).toBe("Kept");
    expect(now.environment).toEqual(stored.environment);
  });
});
