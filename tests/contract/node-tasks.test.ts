import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskRunView } from "../../server/contract/node/task-wire.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";

/** Tasks live and run on the node: the same contract on the local and the remote node. */
for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`NodeClient tasks contract: ${name}`, () => {
    let subject: NodeUnderTest;
    const id = "7a5c0001";
    const output = async (server = id) =>
      Buffer.from((await subject.client.servers.console(server, 0)).logs, "base64").toString();
    const finishedRuns = async (server: string, taskId: string): Promise<TaskRunView[]> =>
      (await subject.client.tasks.runs(server, taskId)).filter((r) => r.finished !== null);

    beforeAll(async () => {
      subject = await make();
      await subject.client.servers.createServer(id, echoDefinition());
    });
    afterAll(async () => {
      await subject?.close();
    });

    it("creates, reads, changes and deletes tasks, with the next run of a schedule", async () => {
      const tasks = subject.client.tasks;
      const made = await tasks.create(id, {
        name: "Hourly hello",
        cronSchedule: "@hourly",
        operations: [{ type: "console", message: "hello" }],
      });
      expect(made).toMatchObject({ name: "Hourly hello", enabled: true, lastRun: null });
      const next = Date.parse(made.nextRun ?? "");
      expect(next).toBeGreaterThan(Date.now());
      expect(next - Date.now()).toBeLessThanOrEqual(3600_000);
      expect(new Date(next).getUTCMinutes()).toBe(0);
      const list = await tasks.list(id);
      expect(list.tasks.map((t) => t.id)).toEqual([made.id]);
      expect(list.settings).toMatchObject({ concurrentLimit: 5, limitMode: "wait" });

      const changed = await tasks.update(id, made.id, {
        name: "Off",
        enabled: false,
        cronSchedule: "*/5 * * * *",
        operations: [],
      });
      expect(changed).toMatchObject({ name: "Off", enabled: false, nextRun: null });
      expect(await tasks.get(id, made.id)).toMatchObject({ name: "Off" });
      await tasks.delete(id, made.id);
      await expect(tasks.get(id, made.id)).rejects.toMatchObject({ status: 404, code: "ErrTaskNotFound" });
      await expect(tasks.list("nope0001")).rejects.toMatchObject({ code: "ErrServerNotFound" });
    });

    it("refuses bad tasks with 400 naming the field", async () => {
      const bad = [
        [{ name: "x", operations: [{ type: "teleport" }] }, "operations[0].type"],
        [{ name: "x", cronSchedule: "0 0 31 2 *", operations: [] }, "cronSchedule"],
        [{ name: "x", consoleMatch: "([", operations: [] }, "consoleMatch"],
        // Valid JavaScript, but no linear-time engine runs a back-reference: the node matches with RE2.
        [{ name: "x", consoleMatch: "(a)\\1", operations: [] }, "consoleMatch"],
        [{ operations: [] }, "name"],
      ] as const;
      for (const [body, field] of bad) {
        await expect(subject.client.tasks.create(id, body)).rejects.toMatchObject({
          status: 400,
          code: "ErrTaskInvalid",
          metadata: { field },
        });
      }
      await expect(subject.client.tasks.setSettings(id, { limitMode: "queue" })).rejects.toMatchObject({
        status: 400,
        metadata: { field: "limitMode" },
      });
    });

    it("runs a task now: its console line reaches the running server; a failing operation is recorded", async () => {
      const task = await subject.client.tasks.create(id, {
        name: "Say",
        operations: [{ type: "console", message: "from-task ${motd}" }],
      });
      // Stopped: the console operation fails and the run says why.
      const refused = await subject.client.tasks.run(id, task.id);
      expect(refused.trigger).toBe("manual");
      await waitUntil(async () => (await finishedRuns(id, task.id)).length === 1, 5000, 50);
      const [failed] = await finishedRuns(id, task.id);
      expect(failed.success).toBe(false);
      expect(failed.message).toMatch(/^operation 1 \(console\): .*not running/);

      await subject.client.servers.action(id, "start", true);
      await waitUntil(async () => (await output()).includes("ready hello"), 10_000, 50);
      await subject.client.tasks.run(id, task.id);
      await waitUntil(async () => (await output()).includes("pong from-task hello"), 10_000, 50);
      await waitUntil(async () => (await finishedRuns(id, task.id)).length === 2, 5000, 50);
      const [ok] = await finishedRuns(id, task.id);
      expect(ok).toMatchObject({ success: true, message: "" });
      expect((await subject.client.tasks.get(id, task.id)).lastRun).toMatchObject({ success: true });
      await subject.client.tasks.delete(id, task.id);
    });

    it("runs a task when a console line matches its pattern", async () => {
      const task = await subject.client.tasks.create(id, {
        name: "Greeter",
        consoleMatch: "pong knock\\b",
        operations: [{ type: "writefile", target: "knocked.txt", text: "yes" }],
      });
      await subject.client.servers.sendConsole(id, "knock");
      await waitUntil(async () => (await finishedRuns(id, task.id)).length === 1, 10_000, 50);
      expect((await finishedRuns(id, task.id))[0]).toMatchObject({ trigger: "console", success: true });
      expect(fs.readFileSync(path.join(subject.dataDir, "servers", id, "knocked.txt"), "utf8")).toBe("yes");
      await subject.client.tasks.delete(id, task.id);
      await subject.client.servers.action(id, "stop", true);
    });

    it("runs a crash task when the server exits with an error, and a start task when it starts", async () => {
      const crashing = "7a5c0002";
      await subject.client.servers.createServer(
        crashing,
        echoDefinition({ run: { command: "sh -c 'echo going; sleep 0.3; exit 3'" } }),
      );
      const onCrash = await subject.client.tasks.create(crashing, {
        name: "On crash",
        event: "crashed",
        operations: [{ type: "writefile", target: "crashed.txt", text: "crash seen" }],
      });
      const onStart = await subject.client.tasks.create(crashing, {
        name: "On start",
        event: "started",
        operations: [],
      });
      await subject.client.servers.action(crashing, "start", true);
      await waitUntil(async () => (await finishedRuns(crashing, onCrash.id)).length === 1, 10_000, 50);
      expect((await finishedRuns(crashing, onCrash.id))[0]).toMatchObject({
        trigger: "event",
        success: true,
      });
      expect(fs.readFileSync(path.join(subject.dataDir, "servers", crashing, "crashed.txt"), "utf8")).toBe(
        "crash seen",
      );
      expect(await finishedRuns(crashing, onStart.id)).toHaveLength(1);
      // Deleting the server takes its tasks.
      await subject.client.servers.deleteServer(crashing);
      expect(fs.existsSync(path.join(subject.dataDir, "servers", `${crashing}.cron`))).toBe(false);
      await expect(subject.client.tasks.list(crashing)).rejects.toMatchObject({ code: "ErrServerNotFound" });
    });

    it("keeps the newest N backups a task made, and leaves other backups alone", async () => {
      const other = "00000000-0000-4000-8000-000000000001.tar.gz";
      await subject.client.backups.create(id, other);
      await waitUntil(
        async () => (await subject.client.backups.list(id)).some((b) => b.state === "ready"),
        10_000,
        50,
      );
      const task = await subject.client.tasks.create(id, {
        name: "Backup",
        operations: [{ type: "backup", keep: 2 }],
      });
      for (let n = 1; n <= 3; n++) {
        await subject.client.tasks.run(id, task.id);
        await waitUntil(async () => (await finishedRuns(id, task.id)).length === n, 20_000, 50);
        expect((await finishedRuns(id, task.id))[0]).toMatchObject({ success: true });
      }
      const backups = await subject.client.backups.list(id);
      expect(backups.filter((b) => b.state === "ready")).toHaveLength(3);
      expect(backups.map((b) => b.fileName)).toContain(other);
    });
  });
}
