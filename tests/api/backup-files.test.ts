import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, backupNamed, settledBackup } from "../support/backups.ts";
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

function filesOf(label: string, id: string, node: () => number, dataDir: () => string, api: () => Client) {
  describe(`files inside a backup on ${label}`, () => {
    let backup: Backup;
    beforeAll(async () => {
      const res = await api().put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: node() });
      expect(res.status, res.text).toBe(200);
      const root = path.join(dataDir(), "servers", id);
      fs.mkdirSync(path.join(root, "world/region"), { recursive: true });
      fs.writeFileSync(path.join(root, "server.properties"), "motd=x\n");
      fs.writeFileSync(path.join(root, "world/level.dat"), "level data");
      fs.writeFileSync(path.join(root, "world/region/r.0.0.mca"), "region");
      fs.symlinkSync("world/level.dat", path.join(root, "latest"));
      expect((await api().post(`/api/servers/${id}/backup/create?name=listed`)).status).toBe(204);
      backup = await settledBackup(api(), id, (await backupNamed(api(), id, "listed")).id);
      expect(backup.state, backup.error).toBe("ready");
    });
    afterAll(async () => {
      await api().delete(`/api/servers/${id}`);
    });

    it("lists the root and a folder from the archive, folders first", async () => {
      const top = await api().get(`/api/servers/${id}/backup/${backup.id}/files`);
      expect(top.status, top.text).toBe(200);
      expect(top.body).toEqual([
        { name: "world", type: "directory", size: 0 },
        { name: "latest", type: "symlink", size: 0 },
        { name: "server.properties", type: "file", size: 7 },
      ]);
      const world = await api().get(`/api/servers/${id}/backup/${backup.id}/files?path=world`);
      expect(world.body).toEqual([
        { name: "region", type: "directory", size: 0 },
        { name: "level.dat", type: "file", size: 10 },
      ]);
      expect(
        (await api().get(`/api/servers/${id}/backup/${backup.id}/files?path=/world/region/`)).body,
      ).toEqual([{ name: "r.0.0.mca", type: "file", size: 6 }]);
      expectError(
        await api().get(`/api/servers/${id}/backup/${backup.id}/files?path=nowhere`),
        404,
        "ErrFileNotFound",
      );
      expectError(
        await api().get(`/api/servers/${id}/backup/${backup.id}/files?path=world/../..`),
        400,
        "ErrIllegalFileAccess",
      );
    });
  });
}

describe("files inside backups", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;
  let s3: S3StandIn;
  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "files-remote"));
    s3 = await S3StandIn.start();
  });
  afterAll(async () => {
    await daemon?.destroy();
    await s3?.destroy();
  });

  filesOf(
    "the local node",
    "b7000001",
    () => 0,
    () => path.join(panel().dataDir, "node"),
    () => admin,
  );
  filesOf(
    "a remote node",
    "b7000002",
    () => remoteNode,
    () => daemon?.config.dataDir ?? "",
    () => admin,
  );
  describe("with an S3 target", () => {
    beforeAll(async () => {
      expect(
        (await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: s3.target("files/") })).status,
      ).toBe(204);
    });
    afterAll(async () => {
      await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: { type: "local" } });
    });
    filesOf(
      "S3",
      "b7000003",
      () => remoteNode,
      () => daemon?.config.dataDir ?? "",
      () => admin,
    );
  });

  it("listing needs server.backup.view", async () => {
    const id = "b7000004";
    expect((await admin.put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: 0 })).status).toBe(
      200,
    );
    fs.writeFileSync(path.join(panel().dataDir, "node", "servers", id, "a.txt"), "a");
    expect((await admin.post(`/api/servers/${id}/backup/create?name=scoped`)).status).toBe(204);
    const backup = await settledBackup(admin, id, (await backupNamed(admin, id, "scoped")).id);
    const user = newUser("files");
    const client = await registeredClient(panel(), user);
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.restore"]);
    expectError(await client.get(`/api/servers/${id}/backup/${backup.id}/files`), 403, "ErrMissingScope", {
      scope: "server.backup.view",
    });
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.view"]);
    expect((await client.get(`/api/servers/${id}/backup/${backup.id}/files`)).body).toEqual([
      { name: "a.txt", type: "file", size: 1 },
    ]);
    expect((await admin.delete(`/api/servers/${id}`)).status).toBe(204);
  });
});
