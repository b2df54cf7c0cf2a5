import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, backupNamed, downloadBytes, settledBackup } from "../support/backups.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { minecraftHooks, saveGameDefinition } from "../support/save-game.ts";
import { consoleText } from "../support/server-console.ts";
import { adminClient, type PanelClient as Client, usePanel } from "../support/test-panel.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-running-backups-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function backUp(api: Client, id: string, name: string): Promise<Backup> {
  const res = await api.post(`/api/servers/${id}/backup/create?name=${encodeURIComponent(name)}`);
  expect(res.status, res.text).toBe(204);
  return settledBackup(api, id, (await backupNamed(api, id, name)).id);
}

/** A file of a backup, read from its download (tar reads it from the archive alone). */
async function fileInBackup(api: Client, id: string, backup: Backup, place: string): Promise<string | null> {
  const { res, bytes } = await downloadBytes(api, `/api/servers/${id}/backup/download/${backup.id}`);
  expect(res.status).toBe(200);
  const archive = path.join(scratch, `${id}-${backup.id}.tar.gz`);
  fs.writeFileSync(archive, bytes);
  try {
    return execFileSync("tar", ["-xzOf", archive, place], { encoding: "utf8", stdio: "pipe" });
  } catch {
    return null;
  }
}

const isRunning = async (api: Client, id: string) =>
  (await api.get(`/api/servers/${id}/status`)).body.running === true;

async function startAndSet(api: Client, id: string, level: string): Promise<void> {
  if (!(await isRunning(api, id))) {
    expect((await api.post(`/api/servers/${id}/start`)).status).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("world loaded"), 15_000, 50);
  }
  const before = (await consoleText(api, id)).split("level changed").length;
  const sent = await api.call("POST", `/api/servers/${id}/console`, {
    raw: `set ${level}`,
    headers: { "content-type": "text/plain" },
  });
  expect(sent.status, sent.text).toBe(204);
  await waitUntil(
    async () => (await consoleText(api, id)).split("level changed").length > before,
    10_000,
    50,
  );
}

function runningBackups(label: string, prefix: string, node: () => number, api: () => Client) {
  describe(`backups of a running server on ${label}`, () => {
    const hooked = `${prefix}01`;
    const plain = `${prefix}02`;
    const silent = `${prefix}03`;
    beforeAll(async () => {
      for (const [id, backup] of [
        [hooked, minecraftHooks],
        [plain, undefined],
        [silent, { before: ["save-off"], after: ["save-on"], waitFor: "never written", timeout: 1 }],
      ] as const) {
        const res = await api().put(`/api/servers/${id}`, {
          ...saveGameDefinition(backup),
          name: id,
          node: node(),
        });
        expect(res.status, res.text).toBe(200);
      }
    });
    afterAll(async () => {
      for (const id of [hooked, plain, silent]) await api().delete(`/api/servers/${id}`);
    });

    it("with the template's hooks: the world is saved first, saving is back on after, the server keeps running", async () => {
      await startAndSet(api(), hooked, "42");
      const backup = await backUp(api(), hooked, "hooked");
      expect(backup.state, backup.error).toBe("ready");
      expect(backup.whileRunning).toBe(false);
      expect(await isRunning(api(), hooked)).toBe(true);
      // The newest world, saved by the hook before the archive was made.
      expect(await fileInBackup(api(), hooked, backup, "level.dat")).toBe("set 42\n");
      const text = await consoleText(api(), hooked);
      const off = text.indexOf("Automatic saving is now disabled");
      const saved = text.indexOf("Saved the game", off);
      const on = text.indexOf("Automatic saving is now enabled", saved);
      expect(off).toBeGreaterThan(-1);
      expect(saved).toBeGreaterThan(off);
      expect(on).toBeGreaterThan(saved);
    });

    it("without hooks: the backup is taken as the files are and marked taken while running", async () => {
      await startAndSet(api(), plain, "7");
      const backup = await backUp(api(), plain, "plain");
      expect(backup.state, backup.error).toBe("ready");
      expect(backup.whileRunning).toBe(true);
      expect(await isRunning(api(), plain)).toBe(true);
      // Never saved: the world in memory is not in the backup.
      expect(await fileInBackup(api(), plain, backup, "level.dat")).toBeNull();
      expect(await consoleText(api(), plain)).not.toContain("Automatic saving");
    });

    it("a server that never writes the awaited line fails the backup with the reason, and still gets its after lines", async () => {
      await startAndSet(api(), silent, "1");
      const backup = await backUp(api(), silent, "silent");
      expect(backup.state).toBe("failed");
      expect(backup.error).toContain('did not write "never written" within 1 s');
      const text = await consoleText(api(), silent);
      expect(text.indexOf("Automatic saving is now enabled")).toBeGreaterThan(
        text.indexOf("Automatic saving is now disabled"),
      );
      expect(await isRunning(api(), silent)).toBe(true);
    });

    it("a restore stops the running server first, then puts the backup's files back", async () => {
      await startAndSet(api(), hooked, "99");
      const backup = await backupNamed(api(), hooked, "hooked");
      const res = await api().post(`/api/servers/${hooked}/backup/restore/${backup.id}`);
      expect(res.status, res.text).toBe(204);
      expect(await isRunning(api(), hooked)).toBe(false);
      const file = await api().get(`/api/servers/${hooked}/file/level.dat`);
      expect(file.text).toBe("set 42\n");
      expect(await consoleText(api(), hooked)).toContain("Backup restored");
    });

    it("a task's backup of a running server runs without stopping it", async () => {
      await startAndSet(api(), hooked, "task");
      const made = await api().post(`/api/servers/${hooked}/tasks`, {
        name: "Nightly",
        cronSchedule: "0 3 * * *",
        operations: [{ type: "backup", keep: 2 }],
      });
      expect(made.status, made.text).toBe(200);
      expect((await api().post(`/api/servers/${hooked}/tasks/${made.body.id}/run`)).status).toBe(202);
      let byTask: Backup | undefined;
      await waitUntil(
        async () => {
          byTask = (await api().get<Backup[]>(`/api/servers/${hooked}/backup`)).body.find(
            (b) => b.name === "Nightly" && b.state === "ready",
          );
          return byTask !== undefined;
        },
        30_000,
        100,
      );
      expect(await isRunning(api(), hooked)).toBe(true);
      expect(byTask?.whileRunning).toBe(false);
      expect(await fileInBackup(api(), hooked, byTask as Backup, "level.dat")).toBe("set task\n");
      expect((await api().post(`/api/servers/${hooked}/stop?wait=true`)).status).toBe(204);
    });

    it("a scheduled backup task of a running server fires on its schedule without stopping it", async () => {
      await startAndSet(api(), hooked, "scheduled");
      const loads = (await consoleText(api(), hooked)).split("world loaded").length;
      const made = await api().post(`/api/servers/${hooked}/tasks`, {
        name: "Every minute",
        cronSchedule: "* * * * *",
        operations: [{ type: "backup", keep: 5 }],
      });
      expect(made.status, made.text).toBe(200);
      type Run = { trigger: string; success: boolean | null; finished: string | null };
      let run: Run | undefined;
      // The schedule's own timer, not a run asked for: up to a minute away.
      await waitUntil(
        async () => {
          const runs = (await api().get<Run[]>(`/api/servers/${hooked}/tasks/${made.body.id}/runs`)).body;
          run = runs.find((r) => r.trigger === "schedule" && r.finished !== null);
          return run !== undefined;
        },
        75_000,
        500,
      );
      expect(run?.success, JSON.stringify(run)).toBe(true);
      const byTask = (await api().get<Backup[]>(`/api/servers/${hooked}/backup`)).body.find(
        (b) => b.name === "Every minute" && b.state === "ready",
      );
      expect(byTask, "the scheduled run's backup").toBeDefined();
      expect(byTask?.whileRunning).toBe(false);
      expect(await fileInBackup(api(), hooked, byTask as Backup, "level.dat")).toBe("set scheduled\n");
      // Still the same process: never stopped, never started again.
      expect(await isRunning(api(), hooked)).toBe(true);
      expect((await consoleText(api(), hooked)).split("world loaded").length).toBe(loads);
      expect((await api().delete(`/api/servers/${hooked}/tasks/${made.body.id}`)).status).toBe(204);
      expect((await api().post(`/api/servers/${hooked}/stop?wait=true`)).status).toBe(204);
    }, 120_000);
  });
}

describe("backups of running servers", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;

  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "running-backups"));
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  runningBackups(
    "the local node",
    "c00000",
    () => 0,
    () => admin,
  );
  runningBackups(
    "a remote node",
    "c00001",
    () => remoteNode,
    () => admin,
  );
});
