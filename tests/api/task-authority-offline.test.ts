import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { joinScopes } from "../../server/panel/scopes.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { newUser } from "../support/expect-api.ts";
import { withPanelDb } from "../support/panel-db.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitForExit, waitUntil } from "../support/poll.ts";
import {
  adminClient,
  type PanelClient,
  registeredClient,
  usePanelWithRemoteNode,
} from "../support/test-panel.ts";

const taskScopes = ["server.tasks.view", "server.tasks.create", "server.tasks.edit", "server.tasks.run"];

/**
 * A change of an author's rights that the node misses (it was down) is not
 * lost: when the node answers again, the panel reviews its tasks and disables
 * those their authors may no longer do.
 */
describe("a task's authority across a node that was down", () => {
  const remote = usePanelWithRemoteNode("task-rights");
  let admin: PanelClient;
  let author: PanelClient;
  const writer = newUser("taskoffline");
  const id = "a7c0b001";
  const grant = (scopes: string[]) =>
    admin.put(`/api/servers/${id}/user/${encodeURIComponent(writer.email)}`, { scopes });

  beforeAll(async () => {
    admin = remote().api;
    author = await registeredClient(remote().panel, writer);
    const made = await admin.put(`/api/servers/${id}`, { ...echoDefinition(), node: remote().nodeId });
    expect(made.status, made.text).toBe(200);
    const granted = await grant(["server.view", "server.console.send", ...taskScopes]);
    expect(granted.status, granted.text).toBeLessThan(300);
  }, 60_000);

  it("disables a task whose author lost a scope while the node was down, once the node answers again", async () => {
    const made = await author.post(`/api/servers/${id}/tasks`, {
      name: "Every minute",
      cronSchedule: "* * * * *",
      operations: [{ type: "console", message: "hello" }],
    });
    expect(made.status, made.text).toBe(200);
    const taskId: string = made.body.id;

    await remote().daemon.stop();
    // The panel cannot tell the node: the change stands, the task stays enabled on the node's disk.
    expect((await grant(["server.view", ...taskScopes])).status).toBeLessThan(300);
    const cron = path.join(remote().daemon.config.dataDir, "servers", `${id}.cron`);
    const onDisk = () => JSON.parse(fs.readFileSync(cron, "utf8")).tasks[taskId];
    expect(onDisk()).toBeDefined();
    expect(onDisk().enabled).not.toBe(false);

    await remote().daemon.start();
    // Within the monitor's period (a check every 4 s at most after a failure), without any edit.
    await waitUntil(
      async () => {
        const { status, body } = await admin.get(`/api/servers/${id}/tasks/${taskId}`);
        return status === 200 && body.enabled === false && body.nextRun === null;
      },
      15_000,
      200,
    );
    expect(onDisk().enabled).toBe(false);

    // Told once in the server's activity, by the panel, under the author's id, naming the scope.
    const authorId = (await author.get("/api/self")).body.id;
    const activity = await admin.get(`/api/servers/${id}/activity?action=task.disable`);
    expect(activity.status, activity.text).toBe(200);
    expect(activity.body.activity).toEqual([
      expect.objectContaining({
        actorKind: "panel",
        userId: authorId,
        action: "task.disable",
        serverId: id,
        subject: "Every minute",
        details: { task: taskId, missingScope: "server.console.send" },
      }),
    ]);
  });
});

describe("a task's authority across a panel restart", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-task-restart-"));
  const started: PanelProcess[] = [];
  afterAll(async () => {
    for (const p of started.reverse()) await p.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("disables, when the panel starts, a local task whose author lost a scope while the panel was down", async () => {
    const onPostgres = process.env.OUTPOST_TEST_DB === "postgres";
    const first = await startPanel({ dataDir, postgresUrl: onPostgres ? inject("postgresUrl") : undefined });
    started.push(first);
    const admin = await adminClient(first);
    const writer = newUser("taskrestart");
    const author = await registeredClient(first, writer);
    const id = "a7c0b002";
    expect((await admin.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 })).status).toBe(200);
    const scopes = ["server.view", "server.console.send", ...taskScopes];
    const granted = await admin.put(`/api/servers/${id}/user/${encodeURIComponent(writer.email)}`, {
      scopes,
    });
    expect(granted.status, granted.text).toBeLessThan(300);
    const made = await author.post(`/api/servers/${id}/tasks`, {
      name: "Hourly",
      cronSchedule: "0 * * * *",
      operations: [{ type: "console", message: "hello" }],
    });
    expect(made.status, made.text).toBe(200);
    const authorId: number = (await author.get("/api/self")).body.id;

    process.kill(first.pid, "SIGKILL");
    await waitForExit(first.pid);
    // Changed while no panel ran (another tool on the database): nothing told the node.
    await withPanelDb(first, (db) =>
      db
        .updateTable("permissions")
        .set({ scopes: joinScopes(scopes.filter((s) => s !== "server.console.send")) })
        .where("user_id", "=", authorId)
        .where("server_id", "=", id)
        .execute(),
    );

    const second = await startPanel({ dataDir, env: { DATABASE_URL: first.databaseUrl ?? "" } });
    started.push(second);
    const again = await adminClient(second);
    await waitUntil(
      async () => (await again.get(`/api/servers/${id}/tasks/${made.body.id}`)).body.enabled === false,
      10_000,
      200,
    );
  });
});
