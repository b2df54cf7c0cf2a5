import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { currentOtp } from "../../server/panel/otp.ts";
import { backupNamed, settledBackup } from "../support/backups.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { rawRequest, upload } from "../support/file-requests.ts";
import { PanelClient } from "../support/http-client.ts";
import { admin, type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitUntil } from "../support/poll.ts";
import { scratchPostgresDatabase } from "../support/postgres-database.ts";

const root = path.resolve(import.meta.dirname, "../..");
/**
 * The previous release: 0.3.0 (CHANGELOG.md), the commit it was cut from. A git tag takes its place
 * once releases are tagged.
 */
const previousRelease = { version: "0.3.0", commit: "02890c78b7b1013de30fd0f51004a50674b0a019" };
const env = { OUTPOST_STATS_SAMPLE_SECONDS: "1", OUTPOST_TRUST_PROXY: "true" };

/**
 * Issue 42: an installation of the previous release, with data of every kind made through its API,
 * upgraded in place to this build — on SQLite, and on PostgreSQL in the api-postgres project.
 * The previous release runs from its own sources (`git archive` of its commit) with this
 * checkout's node_modules: its package.json names no package this one lacks, at the same versions.
 */
describe(`an upgrade in place from ${previousRelease.version}`, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-upgrade-"));
  const oldCheckout = path.join(work, "previous");
  const dataDir = path.join(work, "data");
  const friend = newUser("upgradefriend");
  const id = "0a9ade01";
  let panel: PanelProcess | undefined;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  let otpSecret = "";
  let friendSession: PanelClient;
  let botClient: { client_id: string; client_secret: string };
  let backupId = 0;

  beforeAll(async () => {
    try {
      execFileSync("git", ["-C", root, "cat-file", "-e", `${previousRelease.commit}^{commit}`]);
    } catch {
      throw new Error(
        `the previous release's commit ${previousRelease.commit} is not in this clone (a shallow clone?)`,
      );
    }
    fs.mkdirSync(oldCheckout);
    execFileSync("sh", [
      "-c",
      `git -C "${root}" archive ${previousRelease.commit} | tar -x -C "${oldCheckout}"`,
    ]);
    fs.symlinkSync(path.join(root, "node_modules"), path.join(oldCheckout, "node_modules"));
    const oldPackage = JSON.parse(fs.readFileSync(path.join(oldCheckout, "package.json"), "utf8"));
    const ours = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    for (const [name, range] of Object.entries({ ...oldPackage.dependencies, ...oldPackage.devDependencies }))
      expect({ ...ours.dependencies, ...ours.devDependencies }[name], name).toBe(range);
    fs.mkdirSync(dataDir);

    // On PostgreSQL the database is the test's, made here and dropped after: both panels use it.
    const postgresUrl = process.env.OUTPOST_TEST_DB === "postgres" ? inject("postgresUrl") : undefined;
    if (postgresUrl) {
      const scratch = await scratchPostgresDatabase(postgresUrl, "t_upgrade");
      databaseUrl = scratch.url;
      dropDatabase = scratch.drop;
    }
    panel = await startPanel({ checkout: oldCheckout, dataDir, databaseUrl, env });
    await makeData(panel.url);
    await panel.stop();
    panel = await startPanel({ dataDir, databaseUrl, env });
  }, 240_000);
  afterAll(async () => {
    await panel?.stop();
    await dropDatabase();
    fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  /** What an installation holds, made the way its users would. */
  async function makeData(url: string) {
    const adminApi = new PanelClient(url);
    expect((await adminApi.login(admin.email, admin.password)).status).toBe(200);
    await adminApi.put("/api/settings/panel.registrationEnabled", { value: true });
    friendSession = new PanelClient(url);
    await friendSession.prime();
    expect((await friendSession.post("/auth/register", friend)).status).toBe(200);
    otpSecret = (await friendSession.post("/api/self/otp")).body.secret;
    expect((await friendSession.put("/api/self/otp", { token: currentOtp(otpSecret) })).status).toBe(200);
    expect(
      (await friendSession.post("/api/self/notifications", { type: "email", events: ["server.crashed"] }))
        .status,
    ).toBeLessThan(300);

    const made = await adminApi.put(`/api/servers/${id}`, {
      ...echoDefinition(),
      name: "Kept world",
      node: 0,
    });
    expect(made.status, made.text).toBe(200);
    const granted = await adminApi.put(`/api/servers/${id}/user/${encodeURIComponent(friend.email)}`, {
      scopes: ["server.view", "server.files.view", "server.console"],
    });
    expect(granted.status, granted.text).toBeLessThan(300);
    expect((await upload(adminApi, `/api/servers/${id}/file/notes.txt`, "written by 0.3.0")).status).toBe(
      204,
    );
    const backup = await adminApi.post(`/api/servers/${id}/backup/create?name=before-upgrade`);
    expect(backup.status, backup.text).toBeLessThan(300);
    backupId = (await backupNamed(adminApi, id, "before-upgrade")).id;
    expect((await settledBackup(adminApi, id, backupId)).state).not.toBe("failed");
    const task = await adminApi.post(`/api/servers/${id}/tasks`, {
      name: "Nightly note",
      cronSchedule: "0 4 * * *",
      operations: [{ type: "writefile", target: "nightly.txt", text: "night" }],
    });
    expect(task.status, task.text).toBe(200);
    const bot = await adminApi.post(`/api/servers/${id}/oauth2`, {
      name: "Status bot",
      scopes: ["server.status"],
    });
    expect(bot.status, bot.text).toBe(200);
    botClient = bot.body;
    // A little resource history: the server runs for a few samples.
    expect((await adminApi.post(`/api/servers/${id}/start?wait=false`)).status).toBe(204);
    await waitUntil(
      async () =>
        ((await adminApi.get(`/api/servers/${id}/stats/history?range=1h`)).body.points?.length ?? 0) >= 2,
      30_000,
    );
    expect((await adminApi.post(`/api/servers/${id}/kill`)).status).toBeLessThan(300);
    await waitUntil(
      async () => (await adminApi.get(`/api/servers/${id}/status`)).body.running === false,
      20_000,
    );
  }

  it("keeps users, their second factor and their channels; an old session works or ends cleanly", async () => {
    const oldSession = new PanelClient(panel?.url ?? "");
    for (const [name, value] of friendSession.cookies) oldSession.cookies.set(name, value);
    const self = await oldSession.get("/api/self");
    expect([200, 401], self.text).toContain(self.status);

    const signIn = new PanelClient(panel?.url ?? "");
    expect((await signIn.login(friend.email, friend.password)).body).toEqual({ otpNeeded: true });
    const code = currentOtp(otpSecret, Date.now() + 30_000);
    expect((await signIn.post("/auth/otp", { token: code })).status).toBe(200);
    expect((await signIn.get("/api/self")).body.email).toBe(friend.email);
    const channels = await signIn.get("/api/self/notifications");
    expect(channels.status, channels.text).toBe(200);
    expect(JSON.stringify(channels.body)).toContain("server.crashed");
    // The server user's rights are what they were.
    const mine = await signIn.get(`/api/servers/${id}?perms`);
    expect(mine.status, mine.text).toBe(200);
    expect([...mine.body.permissions.scopes].sort()).toEqual([
      "server.console",
      "server.files.view",
      "server.view",
    ]);
    expect((await signIn.get(`/api/servers/${id}/tasks`)).status).toBe(403);
  });

  it("keeps servers, files, tasks, clients and history; the backup restores and the server starts", async () => {
    const api = new PanelClient(panel?.url ?? "");
    expect((await api.login(admin.email, admin.password)).status).toBe(200);
    expect((await api.get(`/api/servers/${id}`)).body.server.name).toBe("Kept world");
    const read = async () => (await rawRequest(api, "GET", `/api/servers/${id}/file/notes.txt`)).text;
    expect(await read()).toBe("written by 0.3.0");
    const tasks = await api.get(`/api/servers/${id}/tasks`);
    expect(JSON.stringify(tasks.body)).toContain("Nightly note");
    const token = await new PanelClient(panel?.url ?? "").call("POST", "/oauth2/token", {
      form: { grant_type: "client_credentials", ...botClient },
    });
    expect(token.status, token.text).toBe(200);
    const history = await api.get(`/api/servers/${id}/stats/history?range=1h`);
    expect(history.body.points.length).toBeGreaterThanOrEqual(2);

    expect((await upload(api, `/api/servers/${id}/file/notes.txt`, "changed after")).status).toBe(204);
    const restore = await api.post(`/api/servers/${id}/backup/restore/${backupId}`);
    expect(restore.status, restore.text).toBeLessThan(300);
    await waitUntil(async () => (await read()) === "written by 0.3.0", 30_000);

    expect((await api.post(`/api/servers/${id}/start?wait=false`)).status).toBe(204);
    await waitUntil(async () => (await api.get(`/api/servers/${id}/status`)).body.running === true, 20_000);
    await api.post(`/api/servers/${id}/kill`);
  });
});
