import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, backupNamed, downloadBytes, settledBackup } from "../support/backups.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { S3StandIn } from "../support/s3-stand-in.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

async function backUp(api: Client, id: string, name: string): Promise<Backup> {
  expect((await api.post(`/api/servers/${id}/backup/create?name=${name}`)).status).toBe(204);
  const backup = await settledBackup(api, id, (await backupNamed(api, id, name)).id);
  expect(backup.state, backup.error).toBe("ready");
  return backup;
}

/** One byte in the middle of the archive, flipped. */
function flipped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[Math.floor(copy.length / 2)] ^= 0x01;
  return copy;
}

interface Where {
  api: () => Client;
  node: () => number;
  /** Reads and replaces the stored archive, wherever the node keeps it. */
  stored: (
    serverId: string,
    fileName: string,
  ) => { read(): Promise<Buffer>; write(b: Buffer): Promise<void> };
}

function verification(label: string, id: string, where: Where) {
  describe(`verifying a backup kept on ${label}`, () => {
    beforeAll(async () => {
      const res = await where
        .api()
        .put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: where.node() });
      expect(res.status, res.text).toBe(200);
      const file = await where.api().call("PUT", `/api/servers/${id}/file/world.dat`, {
        raw: randomBytes(2 * 1024 * 1024).toString("base64"),
        headers: { "content-type": "application/octet-stream" },
      });
      expect(file.status, file.text).toBe(204);
    });
    afterAll(async () => {
      await where.api().delete(`/api/servers/${id}`);
    });

    it("records the archive's SHA-256 and size; verify passes and the list shows it; a flipped byte fails it", async () => {
      const api = where.api();
      const backup = await backUp(api, id, "checked");
      const { bytes } = await downloadBytes(api, `/api/servers/${id}/backup/download/${backup.id}`);
      expect(backup.size).toBe(bytes.length);
      expect(backup.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(backup.lastVerification).toBeUndefined();

      const good = await api.post(`/api/servers/${id}/backup/${backup.id}/verify`);
      expect(good.status, good.text).toBe(200);
      expect(good.body).toEqual({ ok: true });
      const listed = await backupNamed(api, id, "checked");
      expect(listed.lastVerification).toMatchObject({ ok: true });
      expect(Date.parse(listed.lastVerification?.at ?? "")).toBeGreaterThan(Date.now() - 60_000);

      const stored = where.stored(id, backup.fileName);
      const original = await stored.read();
      expect(original.equals(bytes)).toBe(true);
      await stored.write(flipped(original));
      try {
        const bad = await api.post(`/api/servers/${id}/backup/${backup.id}/verify`);
        expect(bad.status, bad.text).toBe(200);
        expect(bad.body.ok).toBe(false);
        expect(bad.body.reason).toMatch(/SHA-256|cannot be read/);
        const after = await backupNamed(api, id, "checked");
        expect(after.lastVerification).toMatchObject({ ok: false, reason: bad.body.reason });
        // A cut archive fails by its size.
        await stored.write(original.subarray(0, original.length - 100));
        const cut = await api.post(`/api/servers/${id}/backup/${backup.id}/verify`);
        expect(cut.body.ok).toBe(false);
        expect(cut.body.reason).toMatch(/size|cannot be read/);
      } finally {
        await stored.write(original);
      }
      expect((await api.post(`/api/servers/${id}/backup/${backup.id}/verify`)).body).toEqual({ ok: true });
    });
  });
}

describe("backup verification", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;
  let s3: S3StandIn;
  const onDisk = (dataDir: () => string) => (serverId: string, fileName: string) => {
    const file = () => path.join(dataDir(), "backups", serverId, fileName);
    return {
      read: async () => fs.readFileSync(file()),
      write: async (bytes: Buffer) => fs.writeFileSync(file(), bytes),
    };
  };

  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "verify-remote"));
    s3 = await S3StandIn.start();
  });
  afterAll(async () => {
    await daemon?.destroy();
    await s3?.destroy();
  });

  verification("the local node's disk", "d0000001", {
    api: () => admin,
    node: () => 0,
    stored: onDisk(() => path.join(panel().dataDir, "node")),
  });
  verification("a remote node's disk", "d0000002", {
    api: () => admin,
    node: () => remoteNode,
    stored: onDisk(() => daemon?.config.dataDir ?? ""),
  });

  describe("with an S3 target", () => {
    beforeAll(async () => {
      const res = await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: s3.target("verify/") });
      expect(res.status, res.text).toBe(204);
    });
    afterAll(async () => {
      await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: { type: "local" } });
    });
    verification("S3", "d0000003", {
      api: () => admin,
      node: () => remoteNode,
      stored: (serverId, fileName) => ({
        read: () => s3.bytes(`verify/${serverId}/${fileName}`),
        write: (bytes) => s3.put(`verify/${serverId}/${fileName}`, bytes),
      }),
    });
  });

  it("verify needs server.backup.view, and a backup of another server is not found through this one", async () => {
    const id = "d0000004";
    expect((await admin.put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: 0 })).status).toBe(
      200,
    );
    const backup = await backUp(admin, id, "scoped");
    const user = newUser("verify");
    const client = await registeredClient(panel(), user);
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.create"]);
    expectError(await client.post(`/api/servers/${id}/backup/${backup.id}/verify`), 403, "ErrMissingScope", {
      scope: "server.backup.view",
    });
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.view"]);
    expect((await client.post(`/api/servers/${id}/backup/${backup.id}/verify`)).body).toEqual({ ok: true });
    expectError(await client.post(`/api/servers/${id}/backup/999999/verify`), 404, "ErrBackupNotFound");
    expect((await admin.delete(`/api/servers/${id}`)).status).toBe(204);
  });
});
