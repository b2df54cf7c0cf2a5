import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, backupNamed, downloadBytes, settledBackup } from "../support/backups.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient as Client, usePanel } from "../support/test-panel.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-backup-exclusions-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function backUp(api: Client, id: string, name: string): Promise<Backup> {
  expect((await api.post(`/api/servers/${id}/backup/create?name=${name}`)).status).toBe(204);
  const backup = await settledBackup(api, id, (await backupNamed(api, id, name)).id);
  expect(backup.state, backup.error).toBe("ready");
  return backup;
}

async function namesIn(api: Client, id: string, backup: Backup): Promise<string[]> {
  const { bytes } = await downloadBytes(api, `/api/servers/${id}/backup/download/${backup.id}`);
  const file = path.join(scratch, `${id}-${backup.id}.tar.gz`);
  fs.writeFileSync(file, bytes);
  return execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).trim().split("\n").sort();
}

function exclusions(label: string, id: string, node: () => number, dataDir: () => string, api: () => Client) {
  describe(`exclusions on ${label}`, () => {
    let root: string;
    beforeAll(async () => {
      const definition = echoDefinition({ backup: { exclude: ["logs/"] } });
      const res = await api().put(`/api/servers/${id}`, { ...definition, name: id, node: node() });
      expect(res.status, res.text).toBe(200);
      root = path.join(dataDir(), "servers", id);
      const files: Record<string, string> = {
        "keep.txt": "kept",
        "world/level.dat": "level",
        "world/session.lock": "lock",
        "world/important.lock": "kept despite *.lock",
        "logs/latest.log": "log",
        "logs/old/2024.log": "old log",
        "cache/x/y.bin": "cache",
        "tmp.txt": "temporary",
        ".outpostignore": "# comments and blank lines are fine\n\ncache/\n*.lock\n!world/important.lock\n",
        ".pteroignore": "tmp.txt\r\n",
      };
      for (const [place, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, place)), { recursive: true });
        fs.writeFileSync(path.join(root, place), text);
      }
    });
    afterAll(async () => {
      await api().delete(`/api/servers/${id}`);
    });

    it("leaves out what .outpostignore, .pteroignore and the template's list name, and counts the files", async () => {
      const backup = await backUp(api(), id, "excluding");
      expect(await namesIn(api(), id, backup)).toEqual([
        ".outpostignore",
        ".pteroignore",
        "keep.txt",
        "world/",
        "world/important.lock",
        "world/level.dat",
      ]);
      // logs/ (2 files), cache/ (1), world/session.lock, tmp.txt.
      expect(backup.leftOut).toBe(5);
    });

    it("without ignore files only the template's list applies", async () => {
      fs.rmSync(path.join(root, ".outpostignore"));
      fs.rmSync(path.join(root, ".pteroignore"));
      const backup = await backUp(api(), id, "template-only");
      const names = await namesIn(api(), id, backup);
      expect(names).toContain("cache/x/y.bin");
      expect(names).toContain("tmp.txt");
      expect(names.some((n) => n.startsWith("logs"))).toBe(false);
      expect(backup.leftOut).toBe(2);
    });
  });
}

describe("backup exclusions", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;
  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "exclusions-remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  exclusions(
    "the local node",
    "e0000001",
    () => 0,
    () => path.join(panel().dataDir, "node"),
    () => admin,
  );
  exclusions(
    "a remote node",
    "e0000002",
    () => remoteNode,
    () => daemon?.config.dataDir ?? "",
    () => admin,
  );
});
