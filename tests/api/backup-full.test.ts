import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupNamed, settledBackup } from "../support/backups.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { adminClient, type PanelClient as Client, usePanel } from "../support/test-panel.ts";

/**
 * A backup that does not fit where it goes: the server's disk limit, which
 * its backups count toward (the node's disk full acts the same: the write fails).
 * It fails with the reason and leaves nothing half-written beside it.
 */
function fullTarget(label: string, id: string, node: () => number, dataDir: () => string, api: () => Client) {
  describe(`a backup that does not fit on ${label}`, () => {
    beforeAll(async () => {
      const definition = echoDefinition({ limits: { diskMiB: 1 } });
      const res = await api().put(`/api/servers/${id}`, { ...definition, name: id, node: node() });
      expect(res.status, res.text).toBe(200);
      // 700 KiB that do not compress: the archive would take the server over 1 MiB.
      fs.writeFileSync(path.join(dataDir(), "servers", id, "world.bin"), randomBytes(700 * 1024));
    });
    afterAll(async () => {
      await api().delete(`/api/servers/${id}`);
    });

    it("fails with the reason and leaves neither a partial archive nor its facts", async () => {
      expect((await api().post(`/api/servers/${id}/backup/create?name=too-big`)).status).toBe(204);
      const failed = await settledBackup(api(), id, (await backupNamed(api(), id, "too-big")).id);
      expect(failed.state).toBe("failed");
      expect(failed.error).toContain("disk limit");
      const left = fs.readdirSync(path.join(dataDir(), "backups", id));
      expect(left).toEqual([`${failed.fileName}.failed`]);
    });
  });
}

describe("backups to a full target", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;
  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "full-remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
  });
  fullTarget(
    "the local node",
    "a7000001",
    () => 0,
    () => path.join(panel().dataDir, "node"),
    () => admin,
  );
  fullTarget(
    "a remote node",
    "a7000002",
    () => remoteNode,
    () => daemon?.config.dataDir ?? "",
    () => admin,
  );
});
