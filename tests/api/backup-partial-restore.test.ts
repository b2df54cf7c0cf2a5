import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Header } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, backupNamed, settledBackup, treeOf } from "../support/backups.ts";
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

/** A tar.gz whose entries are written as given (names the safe extractor must refuse included). */
function craftedArchive(entries: { path: string; body?: string; linkpath?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? "");
    const header = new Header({
      path: entry.path,
      mode: 0o644,
      size: entry.linkpath ? 0 : body.length,
      type: entry.linkpath ? "SymbolicLink" : "File",
      linkpath: entry.linkpath,
      mtime: new Date(),
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (!entry.linkpath && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

interface Target {
  label: string;
  id: string;
  node: () => number;
  dataDir: () => string;
  /** Replaces the backup's stored bytes (on the node's disk, or in the bucket). */
  write: (serverId: string, fileName: string, bytes: Buffer) => Promise<void>;
}

function partialRestores(target: Target, api: () => Client) {
  const { id } = target;
  describe(`restoring some files of a backup on ${target.label}`, () => {
    let backup: Backup;
    let root: string;
    const restore = (paths: unknown, backupId = backup.id) =>
      api().post(`/api/servers/${id}/backup/restore/${backupId}`, { paths });
    const leftovers = () => fs.readdirSync(root).filter((name) => name.startsWith(".outpost-restore-"));

    beforeAll(async () => {
      const res = await api().put(`/api/servers/${id}`, {
        ...echoDefinition(),
        name: id,
        node: target.node(),
      });
      expect(res.status, res.text).toBe(200);
      root = path.join(target.dataDir(), "servers", id);
      fs.mkdirSync(path.join(root, "world/region"), { recursive: true });
      fs.mkdirSync(path.join(root, "plugins"), { recursive: true });
      fs.writeFileSync(path.join(root, "server.properties"), "motd=backed up\n");
      fs.writeFileSync(path.join(root, "world/level.dat"), "level as backed up");
      fs.writeFileSync(path.join(root, "world/region/r.0.0.mca"), "region as backed up");
      fs.writeFileSync(path.join(root, "plugins/a.jar"), "plugin as backed up");
      fs.symlinkSync("world/level.dat", path.join(root, "latest"));
      expect((await api().post(`/api/servers/${id}/backup/create?name=partial`)).status).toBe(204);
      backup = await settledBackup(api(), id, (await backupNamed(api(), id, "partial")).id);
      expect(backup.state, backup.error).toBe("ready");
    });
    afterAll(async () => {
      await api().delete(`/api/servers/${id}`);
    });

    it("restores one file and one folder; everything else stays as it is now", async () => {
      fs.writeFileSync(path.join(root, "server.properties"), "motd=changed\n");
      fs.writeFileSync(path.join(root, "world/level.dat"), "level changed");
      fs.rmSync(path.join(root, "world/region"), { recursive: true });
      fs.writeFileSync(path.join(root, "plugins/a.jar"), "plugin changed");
      fs.writeFileSync(path.join(root, "world/new.dat"), "made after the backup");

      const res = await restore(["server.properties", "/world/region/"]);
      expect(res.status, res.text).toBe(204);
      const read = (place: string) => fs.readFileSync(path.join(root, place), "utf8");
      expect(read("server.properties")).toBe("motd=backed up\n");
      expect(read("world/region/r.0.0.mca")).toBe("region as backed up");
      // Not named: left as they are now.
      expect(read("world/level.dat")).toBe("level changed");
      expect(read("world/new.dat")).toBe("made after the backup");
      expect(read("plugins/a.jar")).toBe("plugin changed");
      expect(leftovers()).toEqual([]);
    });

    it("a restored folder replaces the folder as it is now; a link comes back as a link", async () => {
      fs.rmSync(path.join(root, "latest"));
      const res = await restore(["world", "world/level.dat", "latest"]);
      expect(res.status, res.text).toBe(204);
      expect(fs.readdirSync(path.join(root, "world")).sort()).toEqual(["level.dat", "region"]);
      expect(fs.readFileSync(path.join(root, "world/level.dat"), "utf8")).toBe("level as backed up");
      expect(fs.readlinkSync(path.join(root, "latest"))).toBe("world/level.dat");
      expect(fs.readFileSync(path.join(root, "plugins/a.jar"), "utf8")).toBe("plugin changed");
      expect(leftovers()).toEqual([]);
    });

    it("refuses places outside the root, places the backup lacks and empty lists, changing nothing", async () => {
      const before = treeOf(root);
      for (const outside of ["../escape", "world/../../escape", "..\\escape"]) {
        expectError(await restore([outside]), 400, "ErrIllegalFileAccess");
      }
      expect((await restore(["a/\u0000b"])).status).toBe(400);
      const missing = await restore(["server.properties", "nowhere/at/all"]);
      expectError(missing, 404, "ErrFileNotFound", { path: "nowhere/at/all" });
      expect((await restore([])).status).toBe(400);
      expect((await restore("world")).status).toBe(400);
      expect(treeOf(root)).toEqual(before);
      expect(leftovers()).toEqual([]);
      expect(fs.existsSync(path.join(target.dataDir(), "servers", "escape"))).toBe(false);
    });

    it("archive entries that would leave the root fail the restore; the files stay as they were", async () => {
      fs.writeFileSync(path.join(root, "world/level.dat"), "level before the crafted restore");
      const before = treeOf(root);
      const serversDir = path.dirname(root);
      for (const entries of [
        [{ path: "world/../../escaped.txt", body: "out" }],
        [{ path: "world/out", linkpath: "../../../../etc/passwd" }],
        [
          { path: "world/level.dat", body: "crafted" },
          { path: "/world/abs.txt", body: "absolute" },
        ],
      ]) {
        const crafted = await createReady(api(), id, `crafted-${entries.length}-${Math.random()}`);
        await target.write(id, crafted.fileName, craftedArchive(entries));
        const res = await restore(["world"], crafted.id);
        expect(res.status, `${JSON.stringify(entries)}: ${res.text}`).toBe(500);
        expectError(res, 500, "ErrBackupRestoreFailed");
        expect(treeOf(root)).toEqual(before);
        expect(leftovers()).toEqual([]);
        expect(fs.existsSync(path.join(serversDir, "escaped.txt"))).toBe(false);
        expect((await api().delete(`/api/servers/${id}/backup/${crafted.id}`)).status).toBe(204);
      }
    });

    it("without paths, or with the reference's empty body, the whole backup comes back", async () => {
      fs.writeFileSync(path.join(root, "made-later.txt"), "later");
      const res = await api().call("POST", `/api/servers/${id}/backup/restore/${backup.id}`, {
        headers: { "content-type": "application/json" },
        raw: "",
      });
      expect(res.status, res.text).toBe(204);
      expect(fs.existsSync(path.join(root, "made-later.txt"))).toBe(false);
      expect(fs.readFileSync(path.join(root, "plugins/a.jar"), "utf8")).toBe("plugin as backed up");
    });
  });
}

async function createReady(api: Client, serverId: string, name: string): Promise<Backup> {
  expect(
    (await api.post(`/api/servers/${serverId}/backup/create?name=${encodeURIComponent(name)}`)).status,
  ).toBe(204);
  const backup = await settledBackup(api, serverId, (await backupNamed(api, serverId, name)).id);
  expect(backup.state, backup.error).toBe("ready");
  return backup;
}

describe("partial restores", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;
  let s3: S3StandIn;
  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "partial-remote"));
    s3 = await S3StandIn.start();
  });
  afterAll(async () => {
    await daemon?.destroy();
    await s3?.destroy();
  });
  const onDisk = (dataDir: () => string) => async (serverId: string, fileName: string, bytes: Buffer) => {
    fs.writeFileSync(path.join(dataDir(), "backups", serverId, fileName), bytes);
  };
  const localDir = () => path.join(panel().dataDir, "node");
  const remoteDir = () => daemon?.config.dataDir ?? "";

  partialRestores(
    { label: "the local node", id: "b7100001", node: () => 0, dataDir: localDir, write: onDisk(localDir) },
    () => admin,
  );
  partialRestores(
    {
      label: "a remote node",
      id: "b7100002",
      node: () => remoteNode,
      dataDir: remoteDir,
      write: onDisk(remoteDir),
    },
    () => admin,
  );
  describe("with an S3 target", () => {
    beforeAll(async () => {
      expect(
        (await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: s3.target("partial/") })).status,
      ).toBe(204);
    });
    afterAll(async () => {
      await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: { type: "local" } });
    });
    partialRestores(
      {
        label: "S3",
        id: "b7100003",
        node: () => remoteNode,
        dataDir: remoteDir,
        write: (serverId, fileName, bytes) => s3.put(`partial/${serverId}/${fileName}`, bytes),
      },
      () => admin,
    );
  });

  it("a partial restore needs server.backup.restore", async () => {
    const id = "b7100004";
    expect((await admin.put(`/api/servers/${id}`, { ...echoDefinition(), name: id, node: 0 })).status).toBe(
      200,
    );
    const file = path.join(localDir(), "servers", id, "a.txt");
    fs.writeFileSync(file, "backed up");
    const backup = await createReady(admin, id, "scoped");
    fs.writeFileSync(file, "changed");
    const user = newUser("partial");
    const client = await registeredClient(panel(), user);
    await setServerScopes(panel(), user.email, id, [
      "server.view",
      "server.backup.view",
      "server.backup.create",
    ]);
    const url = `/api/servers/${id}/backup/restore/${backup.id}`;
    expectError(await client.post(url, { paths: ["a.txt"] }), 403, "ErrMissingScope", {
      scope: "server.backup.restore",
    });
    expect(fs.readFileSync(file, "utf8")).toBe("changed");
    await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.restore"]);
    expect((await client.post(url, { paths: ["a.txt"] })).status).toBe(204);
    expect(fs.readFileSync(file, "utf8")).toBe("backed up");
    expect((await admin.delete(`/api/servers/${id}`)).status).toBe(204);
  });
});
