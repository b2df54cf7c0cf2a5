import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { PanelClient } from "../support/http-client.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { type PanelProcess, startPanel } from "../support/panel-process.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { consoleText } from "../support/server-console.ts";
import { adminClient, type PanelClient as Client } from "../support/test-panel.ts";

const onSqlite = process.env.OUTPOST_TEST_DB !== "postgres";
/** What the tasks in this file do by hand: a task may do only what its author may. */
const handScopes = [
  "server.view",
  "server.console",
  "server.console.send",
  "server.start",
  "server.stop",
  "server.backup.create",
  "server.backup.delete",
];
const taskScopes = [
  "server.tasks.view",
  "server.tasks.create",
  "server.tasks.edit",
  "server.tasks.delete",
  "server.tasks.run",
];

interface Run {
  id: number;
  trigger: string;
  started: string;
  finished: string | null;
  success: boolean | null;
  message: string;
  output: string;
}

/**
 * Tasks through the panel's API, on the local node and on a remote one: the
 * node keeps and runs them, so they outlive a panel restart and a node
 * restart. Real servers, a real daemon, the real clock (one test waits for a
 * minute boundary, while the others run).
 */
describe("tasks", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-tasks-"));
  const user = newUser("tasker");
  let panel: PanelProcess;
  let admin: Client;
  let tasker: Client;
  let daemon: DaemonProcess;
  const servers = { local: "7a5c1001", remote: "7a5c1002" };
  const minuteTasks: Record<string, string> = {};

  const finished = async (api: Client, id: string, taskId: string): Promise<Run[]> => {
    const res = await api.get(`/api/servers/${id}/tasks/${taskId}/runs`);
    expect(res.status, res.text).toBe(200);
    return (res.body as Run[]).filter((r) => r.finished !== null);
  };
  const signIn = async () => {
    admin = await adminClient(panel);
    tasker = new PanelClient(panel.url);
    const res = await tasker.login(user.email, user.password);
    expect(res.status, res.text).toBe(200);
  };

  // On PostgreSQL the database is this file's, so the restarted panel finds it (a panel drops one it made).
  let databaseUrl: string | undefined;
  const database = `t_${randomBytes(6).toString("hex")}`;
  const onServer = async (sql: string) => {
    const client = new pg.Client({ connectionString: inject("postgresUrl") });
    await client.connect();
    await client.query(sql);
    await client.end();
  };

  beforeAll(async () => {
    if (!onSqlite) {
      await onServer(`CREATE DATABASE ${database}`);
      databaseUrl = inject("postgresUrl").replace(/\/[^/]*$/, `/${database}`);
    }
    panel = await startPanel({ dataDir, databaseUrl });
    admin = await adminClient(panel);
    const made = await admin.post("/api/users", { ...user });
    expect(made.status, made.text).toBe(200);
    // Made by an administrator, a user gets no scopes (reference §2.4): signing in needs `login`.
    expect((await admin.put(`/api/users/${made.body.id}/perms`, { scopes: ["login"] })).status).toBe(204);
    let nodeId: number;
    ({ nodeId, daemon } = await addRemoteNode(admin, "tasks-node"));
    for (const [where, id] of Object.entries(servers)) {
      const created = await admin.put(`/api/servers/${id}`, {
        ...echoDefinition(),
        name: `Tasks ${where}`,
        node: where === "local" ? 0 : nodeId,
      });
      expect(created.status, created.text).toBe(200);
      await setServerScopes(panel, user.email, id, [...handScopes, ...taskScopes]);
      expect((await admin.post(`/api/servers/${id}/start?wait=false`)).status).toBe(204);
    }
    await signIn();
    // Every minute, on each node: checked by the last test, after restarts.
    for (const id of Object.values(servers)) {
      const res = await tasker.post(`/api/servers/${id}/tasks`, {
        name: "Every minute",
        cronSchedule: "* * * * *",
        operations: [{ type: "console", message: "tick" }],
      });
      expect(res.status, res.text).toBe(200);
      minuteTasks[id] = res.body.id;
    }
  }, 60_000);

  afterAll(async () => {
    await panel?.stop();
    await daemon?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!onSqlite) await onServer(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  for (const where of ["local", "remote"] as const) {
    describe(`on the ${where} node`, () => {
      const id = servers[where];

      it("creates, lists, changes and deletes a task; bad input names the field", async () => {
        const made = await tasker.post(`/api/servers/${id}/tasks`, {
          name: "Nightly",
          description: "restart at four",
          cronSchedule: "0 4 * * *",
          operations: [{ type: "restart" }, { type: "backup", keep: 3 }],
        });
        expect(made.status, made.text).toBe(200);
        expect(made.body).toMatchObject({ name: "Nightly", enabled: true, lastRun: null });
        expect(Date.parse(made.body.nextRun)).toBeGreaterThan(Date.now());
        const list = await tasker.get(`/api/servers/${id}/tasks`);
        expect(list.body.tasks.map((t: { id: string }) => t.id)).toContain(made.body.id);
        const changed = await tasker.put(`/api/servers/${id}/tasks/${made.body.id}`, {
          name: "Nightly",
          enabled: false,
          cronSchedule: "0 4 * * *",
          operations: [],
        });
        expect(changed.body).toMatchObject({ enabled: false, nextRun: null });
        expect((await tasker.get(`/api/servers/${id}/tasks/${made.body.id}`)).body.enabled).toBe(false);
        expect((await tasker.delete(`/api/servers/${id}/tasks/${made.body.id}`)).status).toBe(204);
        expectError(await tasker.get(`/api/servers/${id}/tasks/${made.body.id}`), 404, "ErrTaskNotFound");

        const bad: [unknown, string][] = [
          [{ name: "x", operations: [{ type: "teleport" }] }, "operations[0].type"],
          [{ name: "x", cronSchedule: "0 0 30 2 *", operations: [] }, "cronSchedule"],
          [{ name: "x", consoleMatch: "(a", operations: [] }, "consoleMatch"],
          [{ name: "", operations: [] }, "name"],
        ];
        for (const [body, field] of bad) {
          expectError(await tasker.post(`/api/servers/${id}/tasks`, body), 400, "ErrTaskInvalid", { field });
        }
        expectError(
          await tasker.put(`/api/servers/${id}/tasks`, { limitMode: "later" }),
          400,
          "ErrTaskInvalid",
          {
            field: "limitMode",
          },
        );
      });

      it("refuses each task call to a user without its scope", async () => {
        const made = await tasker.post(`/api/servers/${id}/tasks`, { name: "Scoped", operations: [] });
        const taskId = made.body.id;
        const calls: [string, () => Promise<{ status: number; body: unknown }>][] = [
          ["server.tasks.view", () => tasker.get(`/api/servers/${id}/tasks`)],
          [
            "server.tasks.create",
            () => tasker.post(`/api/servers/${id}/tasks`, { name: "n", operations: [] }),
          ],
          [
            "server.tasks.edit",
            () => tasker.put(`/api/servers/${id}/tasks/${taskId}`, { name: "n", operations: [] }),
          ],
          ["server.tasks.delete", () => tasker.delete(`/api/servers/${id}/tasks/${taskId}`)],
          ["server.tasks.run", () => tasker.post(`/api/servers/${id}/tasks/${taskId}/run`)],
        ];
        for (const [scope, call] of calls) {
          await setServerScopes(panel, user.email, id, [
            "server.view",
            ...taskScopes.filter((s) => s !== scope),
          ]);
          const res = await call();
          expectError(res as never, 403, "ErrMissingScope", { scope });
        }
        await setServerScopes(panel, user.email, id, [...handScopes, ...taskScopes]);
        expect((await tasker.delete(`/api/servers/${id}/tasks/${taskId}`)).status).toBe(204);
      });

      it("refuses a task holding an operation its author may not do by hand", async () => {
        const made = await tasker.post(`/api/servers/${id}/tasks`, { name: "Harmless", operations: [] });
        expect(made.status, made.text).toBe(200);
        const refused: [Record<string, unknown>, string][] = [
          [{ type: "command", commands: ["sh -c 'id > who.txt'"] }, "server.definition.edit"],
          [{ type: "kill" }, "server.kill"],
          [{ type: "writefile", target: "a.txt", text: "x" }, "server.files.edit"],
        ];
        for (const [op, scope] of refused) {
          const body = { name: "Sneaky", operations: [op] };
          expectError(await tasker.post(`/api/servers/${id}/tasks`, body), 403, "ErrMissingScope", { scope });
          expectError(
            await tasker.put(`/api/servers/${id}/tasks/${made.body.id}`, body),
            403,
            "ErrMissingScope",
            {
              scope,
            },
          );
        }
        await setServerScopes(panel, user.email, id, [
          ...taskScopes,
          ...handScopes.filter((s) => s !== "server.console.send"),
        ]);
        expectError(
          await tasker.post(`/api/servers/${id}/tasks`, {
            name: "Say",
            operations: [{ type: "console", message: "hi" }],
          }),
          403,
          "ErrMissingScope",
          { scope: "server.console.send" },
        );
        await setServerScopes(panel, user.email, id, [...handScopes, ...taskScopes]);
        // What an administrator saves, a task user may still run.
        const command = await admin.post(`/api/servers/${id}/tasks`, {
          name: "By the admin",
          operations: [{ type: "command", commands: ["sh -c 'echo ran > by-admin.txt'"] }],
        });
        expect(command.status, command.text).toBe(200);
        expect((await tasker.post(`/api/servers/${id}/tasks/${command.body.id}/run`)).status).toBe(202);
        await waitUntil(async () => (await finished(tasker, id, command.body.id)).length === 1, 10_000, 100);
        expect((await finished(tasker, id, command.body.id))[0]).toMatchObject({ success: true });
        expect((await admin.get(`/api/servers/${id}/file/by-admin.txt`)).text).toBe("ran\n");
        for (const taskId of [made.body.id, command.body.id]) {
          expect((await tasker.delete(`/api/servers/${id}/tasks/${taskId}`)).status).toBe(204);
        }
      });

      it("runs a task now: its line reaches the running server's console, and the run is kept", async () => {
        await waitUntil(async () => (await consoleText(admin, id)).includes("ready hello"), 10_000, 100);
        const made = await tasker.post(`/api/servers/${id}/tasks`, {
          name: "Greet",
          operations: [{ type: "console", message: "now-${motd}" }],
        });
        const run = await tasker.post(`/api/servers/${id}/tasks/${made.body.id}/run`);
        expect(run.status, run.text).toBe(202);
        expect(run.body).toMatchObject({ trigger: "manual" });
        await waitUntil(async () => (await consoleText(admin, id)).includes("pong now-hello"), 10_000, 100);
        await waitUntil(async () => (await finished(tasker, id, made.body.id)).length === 1, 10_000, 100);
        expect((await finished(tasker, id, made.body.id))[0]).toMatchObject({ success: true, message: "" });
        const view = await tasker.get(`/api/servers/${id}/tasks/${made.body.id}`);
        expect(view.body.lastRun).toMatchObject({ success: true });
      });

      it("runs a task when a console line matches", async () => {
        const made = await tasker.post(`/api/servers/${id}/tasks`, {
          name: "Answer",
          consoleMatch: "pong who-is-there$",
          operations: [{ type: "console", message: "it-is-me" }],
        });
        expect(made.status, made.text).toBe(200);
        await admin.call("POST", `/api/servers/${id}/console`, { raw: "who-is-there" });
        await waitUntil(async () => (await consoleText(admin, id)).includes("pong it-is-me"), 10_000, 100);
        expect((await finished(tasker, id, made.body.id))[0]).toMatchObject({ trigger: "console" });
      });

      it("runs a crash task when a server exits with an error", async () => {
        const crashing = `${id.slice(0, 4)}c${id.slice(5)}`;
        const created = await admin.put(`/api/servers/${crashing}`, {
          ...echoDefinition({ run: { command: "sh -c 'sleep 0.5; exit 7'" } }),
          node: where === "local" ? 0 : (await admin.get(`/api/servers/${id}`)).body.server.node.id,
        });
        expect(created.status, created.text).toBe(200);
        const made = await admin.post(`/api/servers/${crashing}/tasks`, {
          name: "After a crash",
          event: "crashed",
          operations: [{ type: "writefile", target: "crash-note.txt", text: "seen" }],
        });
        expect(made.status, made.text).toBe(200);
        expect((await admin.post(`/api/servers/${crashing}/start?wait=false`)).status).toBe(204);
        await waitUntil(
          async () => (await finished(admin, crashing, made.body.id)).length === 1,
          15_000,
          100,
        );
        expect((await finished(admin, crashing, made.body.id))[0]).toMatchObject({
          trigger: "event",
          success: true,
        });
        const file = await admin.get(`/api/servers/${crashing}/file/crash-note.txt`);
        expect(file.text).toBe("seen");
        expect((await admin.delete(`/api/servers/${crashing}`)).status).toBe(204);
      });

      it("backs up with keep 2: three runs leave the task's newest two in the backup list, and others alone", async () => {
        const quiet = `${id.slice(0, 4)}b${id.slice(5)}`;
        const created = await admin.put(`/api/servers/${quiet}`, {
          ...echoDefinition(),
          node: where === "local" ? 0 : (await admin.get(`/api/servers/${id}`)).body.server.node.id,
        });
        expect(created.status, created.text).toBe(200);
        expect((await admin.post(`/api/servers/${quiet}/backup/create?name=by-hand`)).status).toBe(204);
        await waitUntil(
          async () => (await admin.get(`/api/servers/${quiet}/backup`)).body[0]?.state === "ready",
          20_000,
          100,
        );
        const made = await admin.post(`/api/servers/${quiet}/tasks`, {
          name: "Keep two",
          operations: [{ type: "backup", keep: 2 }],
        });
        expect(made.status, made.text).toBe(200);
        const fileNames: string[] = [];
        for (let n = 1; n <= 3; n++) {
          expect((await admin.post(`/api/servers/${quiet}/tasks/${made.body.id}/run`)).status).toBe(202);
          await waitUntil(async () => (await finished(admin, quiet, made.body.id)).length === n, 20_000, 100);
          const [run] = await finished(admin, quiet, made.body.id);
          expect(run.success, run.message).toBe(true);
          fileNames.push(/backup (\S+\.tar\.gz) made/.exec(run.output)?.[1] ?? "");
        }
        const list = await admin.get(`/api/servers/${quiet}/backup`);
        expect(list.status, list.text).toBe(200);
        const byTask = list.body.filter((b: { name: string }) => b.name === "Keep two");
        expect(byTask.map((b: { fileName: string }) => b.fileName).sort()).toEqual(fileNames.slice(1).sort());
        expect(byTask.every((b: { state: string; size: number }) => b.state === "ready" && b.size > 0)).toBe(
          true,
        );
        expect(list.body.map((b: { name: string }) => b.name)).toContain("by-hand");
        expect(list.body).toHaveLength(3);
        expect((await admin.delete(`/api/servers/${quiet}`)).status).toBe(204);
      });
    });
  }

  it("keeps firing every minute across a panel restart and a node restart", async () => {
    // The panel goes and comes back: the tasks were never its to keep.
    await panel.stop();
    panel = await startPanel({ dataDir, databaseUrl });
    await signIn();
    // The node goes and comes back: it reads its task files again.
    await daemon.stop();
    await daemon.start();
    const restarted = Date.now();
    for (const id of Object.values(servers)) {
      const list = await tasker.get(`/api/servers/${id}/tasks`);
      expect(list.status, list.text).toBe(200);
      const task = list.body.tasks.find((t: { id: string }) => t.id === minuteTasks[id]);
      expect(task).toMatchObject({ name: "Every minute", cronSchedule: "* * * * *" });
      expect(Date.parse(task.nextRun) - Date.now()).toBeLessThanOrEqual(60_000);
    }
    // The servers stopped with their nodes: started again, so the console task has an ear.
    for (const id of Object.values(servers)) {
      const started = await admin.post(`/api/servers/${id}/start?wait=false`);
      expect(started.status, started.text).toBe(204);
    }
    for (const id of Object.values(servers)) {
      await waitUntil(
        async () =>
          (await finished(tasker, id, minuteTasks[id])).some(
            (r) => r.trigger === "schedule" && Date.parse(r.started) >= restarted && r.success,
          ),
        75_000,
        500,
      ).catch(async (error) => {
        throw new Error(`${id}: ${JSON.stringify(await finished(tasker, id, minuteTasks[id]))}`, {
          cause: error,
        });
      });
    }
    expect(await consoleText(admin, servers.remote)).toContain("pong tick");
    expect(await consoleText(admin, servers.local)).toContain("pong tick");
  }, 120_000);
});
