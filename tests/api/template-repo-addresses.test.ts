import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { withPanelDb } from "../support/panel-db.ts";
import { serveFolder } from "../support/static-server.ts";
import { adminClient, type PanelClient as Client, PanelClient, usePanel } from "../support/test-panel.ts";

/**
 * A non-administrator with templates.repo.create makes the panel fetch only from public
 * addresses (issue 22): the panel's host, its networks and cloud metadata stay out of reach, and
 * a refusal says no more than "cannot be reached". Administrators keep local mirrors.
 */
describe("template repositories added by non-administrators", () => {
  const panel = usePanel();
  let admin: Client;
  let adder: Client;
  let work: string;
  let files: Awaited<ReturnType<typeof serveFolder>>;
  let serial = 0;

  beforeAll(async () => {
    admin = await adminClient(panel());
    const user = newUser("repo-adder");
    const made = await admin.post("/api/users", user);
    expect(made.status, made.text).toBe(200);
    const scopes = ["login", "templates.view", "templates.repo.create"];
    expect((await admin.put(`/api/users/${made.body.id}/perms`, { scopes })).status).toBe(204);
    adder = new PanelClient(panel().url);
    expect((await adder.login(user.email, user.password)).status).toBe(200);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-repo-addresses-"));
    fs.mkdirSync(path.join(work, "tree", "echo"), { recursive: true });
    fs.writeFileSync(path.join(work, "tree", "echo", "echo.json"), JSON.stringify(echoDefinition()));
    await tar.c({ gzip: true, file: path.join(work, "repo.tar.gz"), cwd: work }, ["tree"]);
    files = await serveFolder(work);
  });
  afterAll(async () => {
    await files?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const add = (client: Client, url: string) => client.post("/api/templates", { name: `r${++serial}`, url });

  it("refuses loopback, private, link-local and unresolvable addresses alike, without fetching", async () => {
    const port = new URL(files.url).port;
    const answers = [];
    for (const url of [
      `${files.url}/repo.tar.gz`,
      `http://localhost:${port}/repo.tar.gz`,
      `http://[::1]:${port}/repo.tar.gz`,
      `http://0x7f.1:${port}/repo.tar.gz`,
      `http://2130706433:${port}/repo.tar.gz`,
      `${files.url}/repo.git`,
      "http://10.0.0.1/repo.tar.gz",
      "http://192.168.1.1/repo.zip",
      "http://169.254.169.254/latest/meta-data/",
      "http://100.64.0.1/repo.tar.gz",
      "https://[fd00::1]/repo.git",
      "http://no-such-host.invalid/repo.tar.gz",
    ]) {
      const res = await add(adder, url);
      expect(res.status, url).toBe(400);
      answers.push(JSON.stringify({ ...res.body.error }));
    }
    // One answer for all: no distinction between a refused address and an unreachable one.
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0])).toEqual({
      code: "ErrFieldInvalid",
      msg: "${field} cannot be reached",
      metadata: { field: "url" },
    });
    expect(files.requests).toEqual([]);
  });

  it("fetches a non-administrator's repository from public addresses only, and says why in one word", async () => {
    // As if its name had resolved to a public address when it was added (DNS rebinding).
    for (const url of [`${files.url}/repo.tar.gz`, `${files.url}/repo.git`, `${files.url}/missing.tar.gz`]) {
      const added = await add(admin, url);
      expect(added.status, added.text).toBe(200);
      await withPanelDb(panel(), (db) =>
        db.updateTable("template_repos").set({ by_admin: 0 }).where("id", "=", added.body.id).execute(),
      );
      const listed = await admin.get(`/api/templates/${added.body.id}`);
      expect(listed.status).toBe(502);
      expect(listed.body.error.code).toBe("ErrRepoUnavailable");
      expect(listed.body.error.metadata.reason).toBe("it could not be reached");
    }
    expect(files.requests).toEqual([]);
  });

  it("lets an administrator fetch from any address, and tells them why a fetch failed", async () => {
    const added = await add(admin, `${files.url}/repo.tar.gz`);
    expect(added.status, added.text).toBe(200);
    const listed = await admin.get(`/api/templates/${added.body.id}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((t: { name: string }) => t.name)).toEqual(["echo"]);
    const missing = await add(admin, `${files.url}/missing.tar.gz`);
    const failed = await admin.get(`/api/templates/${missing.body.id}`);
    expect(failed.status).toBe(502);
    expect(failed.body.error.metadata.reason).toMatch(/HTTP 404/);
  });
});
