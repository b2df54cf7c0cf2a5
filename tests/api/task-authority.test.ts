import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { waitUntil } from "../support/poll.ts";
import { serveFolder } from "../support/static-server.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

const taskScopes = ["server.tasks.view", "server.tasks.create", "server.tasks.edit", "server.tasks.run"];

/**
 * A task runs with its author's rights, not the node's: checked when it is
 * saved, again when it is run by hand, and when the author's rights shrink
 * (its schedule stops). The author is who saved it, never what the body says.
 */
describe("a task's authority", () => {
  const panel = usePanel();
  let admin: PanelClient;
  let author: PanelClient;
  let runner: PanelClient;
  const writer = newUser("taskauthor");
  const other = newUser("taskrunner");
  const id = "a7c0a001";
  const grant = (who: { email: string }, scopes: string[]) =>
    admin.put(`/api/servers/${id}/user/${encodeURIComponent(who.email)}`, { scopes });
  const task = (taskId: string) => admin.get(`/api/servers/${id}/tasks/${taskId}`);

  beforeAll(async () => {
    admin = await adminClient(panel());
    author = await registeredClient(panel(), writer);
    runner = await registeredClient(panel(), other);
    const made = await admin.put(`/api/servers/${id}`, { ...echoDefinition(), node: 0 });
    expect(made.status, made.text).toBe(200);
    for (const who of [writer, other]) {
      const granted = await grant(who, ["server.view", "server.console.send", ...taskScopes]);
      expect(granted.status, granted.text).toBeLessThan(300);
    }
  }, 60_000);
  afterAll(async () => {
    await admin?.delete(`/api/servers/${id}`);
  });

  it("stops a task whose author lost a scope it needs: its schedule is disabled and nobody runs it by hand", async () => {
    const adminId = (await admin.get("/api/self")).body.id;
    expect(adminId).toBeTypeOf("number");
    // Naming an administrator as author changes nothing: the caller is the author.
    const made = await author.post(`/api/servers/${id}/tasks`, {
      name: "Every minute",
      cronSchedule: "* * * * *",
      operations: [{ type: "console", message: "hello" }],
      author: adminId,
    });
    expect(made.status, made.text).toBe(200);
    expect((await runner.post(`/api/servers/${id}/tasks/${made.body.id}/run`)).status).toBe(202);

    expect((await grant(writer, ["server.view", ...taskScopes])).status).toBeLessThan(300);
    // Disabled on the node: no next run.
    await waitUntil(
      async () => {
        const { enabled, nextRun } = (await task(made.body.id)).body;
        return enabled === false && nextRun === null;
      },
      10_000,
      100,
    );
    // The runner may send console lines, but the task does what its author may do.
    expectError(await runner.post(`/api/servers/${id}/tasks/${made.body.id}/run`), 403, "ErrMissingScope", {
      scope: "server.console.send",
    });
    expectError(await admin.post(`/api/servers/${id}/tasks/${made.body.id}/run`), 403, "ErrMissingScope", {
      scope: "server.console.send",
    });

    // Saved again by someone who may, it is theirs and runs.
    const { id: taskId, nextRun, lastRun, ...saved } = (await task(made.body.id)).body;
    const resaved = await runner.put(`/api/servers/${id}/tasks/${taskId}`, { ...saved, enabled: true });
    expect(resaved.status, resaved.text).toBe(200);
    expect((await author.post(`/api/servers/${id}/tasks/${taskId}/run`)).status).toBe(202);
    expect((await admin.delete(`/api/servers/${id}/tasks/${taskId}`)).status).toBe(204);
  });

  it("stops a deleted author's tasks", async () => {
    const gone = newUser("taskgone");
    const goneClient = await registeredClient(panel(), gone);
    expect((await grant(gone, ["server.view", "server.console.send", ...taskScopes])).status).toBeLessThan(
      300,
    );
    const made = await goneClient.post(`/api/servers/${id}/tasks`, {
      name: "Hourly",
      cronSchedule: "0 * * * *",
      operations: [{ type: "console", message: "hello" }],
    });
    expect(made.status, made.text).toBe(200);
    const found = await admin.get(`/api/users?email=${encodeURIComponent(gone.email)}`);
    const userId = found.body?.users?.[0]?.id;
    expect(userId, found.text).toBeTypeOf("number");
    expect((await admin.delete(`/api/users/${userId}`)).status).toBe(204);
    await waitUntil(async () => (await task(made.body.id)).body.enabled === false, 10_000, 100);
    expectError(await runner.post(`/api/servers/${id}/tasks/${made.body.id}/run`), 403, "ErrMissingScope", {
      scope: "server.console.send",
    });
  });

  it("fetches a task's downloads from public addresses only: not the node's loopback, private networks or metadata", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-task-ssrf-"));
    fs.writeFileSync(path.join(folder, "inside.txt"), "only on the node's network");
    const inside = await serveFolder(folder);
    try {
      expect(
        (await grant(writer, ["server.view", "server.files.view", "server.files.edit", ...taskScopes]))
          .status,
      ).toBeLessThan(300);
      const made = await author.post(`/api/servers/${id}/tasks`, {
        name: "Fetch",
        operations: [{ type: "download", files: [`${inside.url}/inside.txt`] }],
      });
      expect(made.status, made.text).toBe(200);
      expect((await author.post(`/api/servers/${id}/tasks/${made.body.id}/run`)).status).toBe(202);
      let run: { finished: string | null; success: boolean | null; output: string } | undefined;
      await waitUntil(
        async () => {
          [run] = (await author.get(`/api/servers/${id}/tasks/${made.body.id}/runs`)).body;
          return run?.finished != null;
        },
        10_000,
        100,
      );
      expect(run?.success, run?.output).toBe(false);
      expect(inside.requests).toEqual([]);
      expect((await author.get(`/api/servers/${id}/file/inside.txt`)).status).toBe(404);
    } finally {
      await inside.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("writes a task's files as its users write them: an egg's protected files stay untouched", async () => {
    const eggServer = "a7c0a002";
    const made = await admin.put(`/api/servers/${eggServer}`, {
      ...echoDefinition(),
      node: 0,
      egg: { format: "PTDL_v2", denylist: ["server.jar"] },
    });
    expect(made.status, made.text).toBe(200);
    try {
      const granted = await admin.put(`/api/servers/${eggServer}/user/${encodeURIComponent(writer.email)}`, {
        scopes: ["server.view", "server.files.view", "server.files.edit", ...taskScopes],
      });
      expect(granted.status, granted.text).toBeLessThan(300);
      const runTask = async (target: string) => {
        const task = await author.post(`/api/servers/${eggServer}/tasks`, {
          name: `Write ${target}`,
          operations: [{ type: "writefile", target, text: "from a task" }],
        });
        expect(task.status, task.text).toBe(200);
        expect((await author.post(`/api/servers/${eggServer}/tasks/${task.body.id}/run`)).status).toBe(202);
        let run: { finished: string | null; success: boolean | null; output: string } | undefined;
        await waitUntil(
          async () => {
            [run] = (await author.get(`/api/servers/${eggServer}/tasks/${task.body.id}/runs`)).body;
            return run?.finished != null;
          },
          10_000,
          100,
        );
        return run;
      };
      expect((await runTask("free.txt"))?.success).toBe(true);
      expect((await author.get(`/api/servers/${eggServer}/file/free.txt`)).text).toBe("from a task");
      const refused = await runTask("server.jar");
      expect(refused?.success, refused?.output).toBe(false);
      expect((await author.get(`/api/servers/${eggServer}/file/server.jar`)).status).toBe(404);
    } finally {
      await admin.delete(`/api/servers/${eggServer}`);
    }
  });
});
