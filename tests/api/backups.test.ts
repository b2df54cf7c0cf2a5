import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backup, backupNamed, downloadBytes, settledBackup, treeOf } from "../support/backups.ts";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError, newUser } from "../support/expect-api.ts";
import { setServerScopes, withPanelDb } from "../support/panel-db.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { consoleText } from "../support/server-console.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-backups-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Files of every kind a backup must keep: nested folders, an empty one, binary data and a link. */
function plantFiles(root: string): void {
  fs.mkdirSync(path.join(root, "world/region/deep"), { recursive: true });
  fs.mkdirSync(path.join(root, "empty"), { recursive: true });
  fs.writeFileSync(path.join(root, "server.properties"), "motd=original\n");
  fs.writeFileSync(path.join(root, "world/level.dat"), randomBytes(150_000));
  fs.writeFileSync(path.join(root, "world/region/deep/r.0.0.mca"), "region data ".repeat(5000));
  // Over 3 MiB: the archive is several gzip members (one per MiB of tar), which tar and a restore read as one.
  fs.writeFileSync(path.join(root, "world/region/r.1.0.mca"), "chunk data ".repeat(300_000));
  fs.symlinkSync("world/region/deep/r.0.0.mca", path.join(root, "latest-region"));
}

const expectedListing = [
  "empty/",
  "latest-region",
  "server.properties",
  "world/",
  "world/level.dat",
  "world/region/",
  "world/region/deep/",
  "world/region/deep/r.0.0.mca",
  "world/region/r.1.0.mca",
];

async function createReady(api: Client, id: string, name: string): Promise<Backup> {
  const res = await api.post(`/api/servers/${id}/backup/create?name=${encodeURIComponent(name)}`);
  expect(res.status, res.text).toBe(204);
  const backup = await settledBackup(api, id, (await backupNamed(api, id, name)).id);
  expect(backup.state, backup.error).toBe("ready");
  return backup;
}

/** Backup, download, restore and delete on one node, with the node's own folders to look at. */
function roundTrip(
  label: string,
  serverId: string,
  setup: () => { api: Client; node: number; dataDir: string },
) {
  describe(`backups on ${label}`, () => {
    let api: Client;
    let root: string;
    let backupsDir: string;
    let first: Backup;
    beforeAll(async () => {
      const { api: client, node, dataDir } = setup();
      api = client;
      const created = await api.put(`/api/servers/${serverId}`, { ...echoDefinition(), name: label, node });
      expect(created.status, created.text).toBe(200);
      root = path.join(dataDir, "servers", serverId);
      backupsDir = path.join(dataDir, "backups", serverId);
      plantFiles(root);
    });

    it("makes a tar.gz of the server's folder in the background and lists it as ready with its size", async () => {
      const before = Date.now();
      const res = await api.post(`/api/servers/${serverId}/backup/create?name=first`);
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe("");
      // Recorded at once, whatever the node has done so far.
      const listed = await backupNamed(api, serverId, "first");
      expect(listed.fileName).toMatch(/^[0-9a-f-]{36}\.tar\.gz$/);
      first = await settledBackup(api, serverId, listed.id);
      expect(first).toMatchObject({
        id: listed.id,
        name: "first",
        fileName: listed.fileName,
        state: "ready",
      });
      expect(first.bytesWritten).toBeUndefined();
      const onDisk = path.join(backupsDir, first.fileName);
      expect(first.size).toBe(fs.statSync(onDisk).size);
      expect(Date.parse(first.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(first.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      // No temporary or failure files are left beside it: only its facts (SHA-256, size…).
      expect(fs.readdirSync(backupsDir).sort()).toEqual([first.fileName, `${first.fileName}.facts`]);
      const text = await consoleText(api, serverId);
      expect(text).toContain("Backing up server");
      expect(text).toContain("Backup complete");
    });

    it("downloads the archive streamed with its name, size and type; it holds the tree and the link as a link", async () => {
      const { res, bytes } = await downloadBytes(api, `/api/servers/${serverId}/backup/download/${first.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/gzip");
      expect(res.headers.get("content-length")).toBe(String(first.size));
      const day = first.createdAt.slice(0, 10);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="first-${day}.tar.gz"`);
      expect(bytes.equals(fs.readFileSync(path.join(backupsDir, first.fileName)))).toBe(true);
      const file = path.join(scratch, `${serverId}-first.tar.gz`);
      fs.writeFileSync(file, bytes);
      const names = execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).trim().split("\n");
      expect(names.map((n) => n.replace(/\/$/, "/")).sort()).toEqual(expectedListing);
      const verbose = execFileSync("tar", ["-tvzf", file], { encoding: "utf8" });
      expect(verbose).toMatch(/^l.* latest-region -> world\/region\/deep\/r\.0\.0\.mca$/m);
      // The same bytes as the files themselves.
      const out = path.join(scratch, `${serverId}-unpacked`);
      fs.mkdirSync(out);
      execFileSync("tar", ["-xzf", file, "-C", out]);
      expect(treeOf(out)).toEqual(treeOf(root));
    });

    it("restores: changed files come back, new ones are gone, the link is a link again", async () => {
      const original = treeOf(root);
      fs.writeFileSync(path.join(root, "server.properties"), "motd=changed\n");
      fs.rmSync(path.join(root, "world/region"), { recursive: true });
      fs.writeFileSync(path.join(root, "added.txt"), "not in the backup");
      fs.mkdirSync(path.join(root, "added-folder/inner"), { recursive: true });
      fs.rmSync(path.join(root, "latest-region"));
      fs.writeFileSync(path.join(root, "latest-region"), "a file where the link was");
      expect(treeOf(root)).not.toEqual(original);

      const res = await api.post(`/api/servers/${serverId}/backup/restore/${first.id}`);
      expect(res.status, res.text).toBe(204);
      expect(treeOf(root)).toEqual(original);
      expect(fs.lstatSync(path.join(root, "latest-region")).isSymbolicLink()).toBe(true);
      // Nothing of the swap is left beside the server's folder.
      expect(fs.readdirSync(path.dirname(root)).filter((n) => n.startsWith("."))).toEqual([]);
      const text = await consoleText(api, serverId);
      expect(text).toContain("Backup restored");
    });

    it("a restore from a damaged archive fails and leaves every file as it was", async () => {
      fs.writeFileSync(path.join(root, "after-backup.txt"), "made after the backup");
      fs.writeFileSync(path.join(root, "server.properties"), "motd=current\n");
      const damaged = await createReady(api, serverId, "damaged");
      const current = treeOf(root);
      const file = path.join(backupsDir, damaged.fileName);
      const good = fs.readFileSync(file);

      // Bytes in the middle overwritten (same size), then the file cut in half.
      const corrupt = Buffer.from(good);
      for (let i = Math.floor(corrupt.length * 0.4); i < corrupt.length * 0.6; i++) corrupt[i] ^= 0x5a;
      for (const broken of [corrupt, good.subarray(0, Math.floor(good.length / 2))]) {
        fs.writeFileSync(file, broken);
        const res = await api.post(`/api/servers/${serverId}/backup/restore/${damaged.id}`);
        expectError(res, 500, "ErrBackupRestoreFailed");
        expect(res.body.error.metadata.reason).toMatch(/zlib|tar|unexpected|invalid/i);
        expect(treeOf(root)).toEqual(current);
        expect(fs.readdirSync(path.dirname(root)).filter((n) => n.startsWith("."))).toEqual([]);
      }
      expect(await consoleText(api, serverId)).toContain("Restore failed");
      expect((await api.delete(`/api/servers/${serverId}/backup/${damaged.id}`)).status).toBe(204);
      fs.rmSync(path.join(root, "after-backup.txt"));
    });

    it("backs up a running server (marked taken while running); a restore stops it first", async () => {
      expect((await api.post(`/api/servers/${serverId}/start`)).status).toBe(204);
      const running = await createReady(api, serverId, "running");
      expect(running.whileRunning).toBe(true);
      expect((await api.get(`/api/servers/${serverId}/status`)).body.running).toBe(true);
      const res = await api.post(`/api/servers/${serverId}/backup/restore/${first.id}`);
      expect(res.status, res.text).toBe(204);
      expect((await api.get(`/api/servers/${serverId}/status`)).body.running).toBe(false);
      expect((await api.delete(`/api/servers/${serverId}/backup/${running.id}`)).status).toBe(204);
      expect((await api.get<Backup[]>(`/api/servers/${serverId}/backup`)).body.map((b) => b.name)).toEqual([
        "first",
      ]);
    });

    it("deletes a backup: its file and its row", async () => {
      const res = await api.delete(`/api/servers/${serverId}/backup/${first.id}`);
      expect(res.status, res.text).toBe(204);
      expect(fs.existsSync(path.join(backupsDir, first.fileName))).toBe(false);
      expectError(await api.get(`/api/servers/${serverId}/backup/${first.id}`), 404, "ErrBackupNotFound");
      expectError(await api.delete(`/api/servers/${serverId}/backup/${first.id}`), 404, "ErrBackupNotFound");
      expect((await api.get(`/api/servers/${serverId}/backup`)).body).toEqual([]);
    });
  });
}

describe("backups API", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;
  const localDataDir = () => path.join(panel().dataDir, "node");

  beforeAll(async () => {
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "backup-remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
  });

  roundTrip("the local node", "b0000001", () => ({ api: admin, node: 0, dataDir: localDataDir() }));
  roundTrip("a remote node", "b0000002", () => ({
    api: admin,
    node: remoteNode,
    dataDir: daemon?.config.dataDir ?? "",
  }));

  it("a node that stops while writing a backup lists it as failed once it is back, and keeps no partial file", async () => {
    if (!daemon) throw new Error("no remote daemon");
    const id = "b0000002";
    const root = path.join(daemon.config.dataDir, "servers", id);
    const big = path.join(root, "big.bin");
    fs.writeFileSync(big, randomBytes(48 * 1024 * 1024));
    try {
      expect((await admin.post(`/api/servers/${id}/backup/create?name=cut-short`)).status).toBe(204);
      const cut = await backupNamed(admin, id, "cut-short");
      await daemon.stop();
      // The node cannot be asked: the panel answers with what it knows.
      expect((await backupNamed(admin, id, "cut-short")).state).toBe("creating");
      await daemon.start();
      const after = await settledBackup(admin, id, cut.id);
      expect(after.state).toBe("failed");
      expect(after.error).toContain("stopped");
      const left = fs.readdirSync(path.join(daemon.config.dataDir, "backups", id));
      expect(left.filter((n) => n.endsWith(".part"))).toEqual([]);
      expect((await admin.delete(`/api/servers/${id}/backup/${cut.id}`)).status).toBe(204);
      expect(fs.readdirSync(path.join(daemon.config.dataDir, "backups", id))).toEqual([]);
    } finally {
      fs.rmSync(big, { force: true });
    }
  });

  describe("rules", () => {
    const id = "b0000003";
    const root = () => path.join(localDataDir(), "servers", id);
    beforeAll(async () => {
      const res = await admin.put(`/api/servers/${id}`, { ...echoDefinition(), name: "rules", node: 0 });
      expect(res.status, res.text).toBe(200);
      fs.writeFileSync(path.join(root(), "a.txt"), "a");
    });

    it("needs a name, of at most 100 printable characters; the body is ignored", async () => {
      expectError(await admin.post(`/api/servers/${id}/backup/create`), 400, "ErrFieldRequired", {
        field: "name",
      });
      expectError(await admin.post(`/api/servers/${id}/backup/create?name=%20%20`), 400, "ErrFieldRequired");
      expectError(
        await admin.post(`/api/servers/${id}/backup/create?name=${"x".repeat(101)}`),
        400,
        "ErrFieldLength",
      );
      expectError(
        await admin.post(`/api/servers/${id}/backup/create?name=a%07b`),
        400,
        "ErrFieldMustBePrintable",
      );
      expect((await admin.get(`/api/servers/${id}/backup`)).body).toEqual([]);
      // The reference's client may send a JSON content type with an empty body.
      const withType = await admin.call("POST", `/api/servers/${id}/backup/create?name=typed`, {
        headers: { "content-type": "application/json" },
      });
      expect(withType.status, withType.text).toBe(204);
      expect((await settledBackup(admin, id, (await backupNamed(admin, id, "typed")).id)).state).toBe(
        "ready",
      );
    });

    it("names the download after the backup and its day, in UTF-8 too when the name needs it", async () => {
      const backup = await createReady(admin, id, "Welt größe");
      const { res } = await downloadBytes(admin, `/api/servers/${id}/backup/download/${backup.id}`);
      expect(res.status).toBe(200);
      const day = backup.createdAt.slice(0, 10);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="Welt_gr_e-${day}.tar.gz"; filename*=UTF-8''Welt%20gr%C3%B6%C3%9Fe-${day}.tar.gz`,
      );
      expect((await admin.delete(`/api/servers/${id}/backup/${backup.id}`)).status).toBe(204);
    });

    it("lists newest first; unknown ids and servers are not found", async () => {
      await createReady(admin, id, "second");
      const names = (await admin.get<Backup[]>(`/api/servers/${id}/backup`)).body.map((b) => b.name);
      expect(names).toEqual(["second", "typed"]);
      expectError(await admin.get(`/api/servers/${id}/backup/999999`), 404, "ErrBackupNotFound");
      expectError(await admin.post(`/api/servers/${id}/backup/restore/999999`), 404, "ErrBackupNotFound");
      expectError(await admin.get(`/api/servers/${id}/backup/download/999999`), 404, "ErrBackupNotFound");
      expect((await admin.get(`/api/servers/${id}/backup/abc`)).status).toBe(400);
      expect((await admin.get("/api/servers/ffffffff/backup")).status).toBe(404);
    });

    it("while one backup is written: a second, a restore, start, install and deleting the server are refused; progress shows", async () => {
      // Random bytes do not compress: writing them takes long enough to ask meanwhile.
      const big = path.join(root(), "big.bin");
      const out = fs.openSync(big, "w");
      for (let i = 0; i < 48; i++) fs.writeSync(out, randomBytes(1024 * 1024));
      fs.closeSync(out);
      const previous = await backupNamed(admin, id, "second");
      try {
        expect((await admin.post(`/api/servers/${id}/backup/create?name=big`)).status).toBe(204);
        expectError(
          await admin.post(`/api/servers/${id}/backup/create?name=again`),
          409,
          "ErrBackupInProgress",
        );
        const running = await backupNamed(admin, id, "big");
        expect(running.state).toBe("creating");
        expect(running.bytesWritten).toBeGreaterThanOrEqual(0);
        expectError(
          await admin.post(`/api/servers/${id}/backup/restore/${previous.id}`),
          409,
          "ErrBackupInProgress",
        );
        expectError(await admin.post(`/api/servers/${id}/start`), 409, "ErrBackupInProgress");
        expectError(await admin.post(`/api/servers/${id}/install?wait=true`), 409, "ErrBackupInProgress");
        expectError(
          await admin.delete(`/api/servers/${id}/backup/${running.id}`),
          409,
          "ErrBackupInProgress",
        );
        expectError(
          await admin.get(`/api/servers/${id}/backup/download/${running.id}`),
          409,
          "ErrBackupInProgress",
        );
        expectError(await admin.delete(`/api/servers/${id}`), 409, "ErrBackupInProgress");
        // Still being written after all those answers: the refusals came while it ran.
        expect((await admin.get<Backup>(`/api/servers/${id}/backup/${running.id}`)).body.state).toBe(
          "creating",
        );
        const done = await settledBackup(admin, id, running.id);
        expect(done.state).toBe("ready");
        expect(done.size).toBeGreaterThan(48 * 1024 * 1024);
        expect(await backupNamed(admin, id, "again").catch(() => undefined)).toBeUndefined();
        expect((await admin.delete(`/api/servers/${id}/backup/${running.id}`)).status).toBe(204);
      } finally {
        fs.rmSync(big, { force: true });
      }
    });

    it("keeps links inside the folder (an absolute one made relative) and leaves out links that lead out", async () => {
      const links: [string, string][] = [
        ["inside-abs", path.join(root(), "a.txt")],
        ["to-etc", "/etc"],
        ["to-sibling", "../b0000001/server.properties"],
        ["dangling", "not-there-yet.txt"],
      ];
      for (const [name, target] of links) fs.symlinkSync(target, path.join(root(), name));
      try {
        const backup = await createReady(admin, id, "links");
        const file = path.join(localDataDir(), "backups", id, backup.fileName);
        const listing = execFileSync("tar", ["-tvzf", file], { encoding: "utf8" });
        expect(listing).toMatch(/^l.* inside-abs -> a\.txt$/m);
        expect(listing).toMatch(/^l.* dangling -> not-there-yet\.txt$/m);
        expect(listing).not.toMatch(/to-etc|to-sibling/);
        const text = await consoleText(admin, id);
        expect(text).toContain("Backup left out to-etc");
        expect(text).toContain("Backup left out to-sibling");
        // And the backup restores: every link it holds can be made again inside the folder.
        expect((await admin.post(`/api/servers/${id}/backup/restore/${backup.id}`)).status).toBe(204);
        expect(fs.readlinkSync(path.join(root(), "inside-abs"))).toBe("a.txt");
        expect(fs.existsSync(path.join(root(), "to-etc"))).toBe(false);
        expect((await admin.delete(`/api/servers/${id}/backup/${backup.id}`)).status).toBe(204);
      } finally {
        for (const [name] of links) fs.rmSync(path.join(root(), name), { force: true });
      }
    });

    it("a backup that cannot be written is listed as failed with the reason, without node paths", async () => {
      const moved = `${root()}.away`;
      fs.renameSync(root(), moved);
      try {
        expect((await admin.post(`/api/servers/${id}/backup/create?name=broken`)).status).toBe(204);
        const broken = await settledBackup(admin, id, (await backupNamed(admin, id, "broken")).id);
        expect(broken.state).toBe("failed");
        expect(broken.error).toBeTruthy();
        expect(broken.error).not.toContain(localDataDir());
        expect(await consoleText(admin, id)).toContain("Backup failed");
        expectError(
          await admin.get(`/api/servers/${id}/backup/download/${broken.id}`),
          404,
          "ErrBackupNotFound",
        );
        expect((await admin.delete(`/api/servers/${id}/backup/${broken.id}`)).status).toBe(204);
        // Its failure note went with it.
        expect(
          fs
            .readdirSync(path.join(localDataDir(), "backups", id))
            .every((n) => n.endsWith(".tar.gz") || n.endsWith(".tar.gz.facts")),
        ).toBe(true);
      } finally {
        fs.renameSync(moved, root());
      }
    });

    it("each call needs its own scope, and a backup of another server is not found through this one", async () => {
      const user = newUser("backup");
      const client = await registeredClient(panel(), user);
      const other = "b0000004";
      expect(
        (await admin.put(`/api/servers/${other}`, { ...echoDefinition(), name: "other", node: 0 })).status,
      ).toBe(200);
      const mine = await backupNamed(admin, id, "second");
      const theirs = await createReady(admin, other, "theirs");

      await setServerScopes(panel(), user.email, id, ["server.view", "server.backup.view"]);
      expect((await client.get(`/api/servers/${id}/backup`)).status).toBe(200);
      expect((await client.get(`/api/servers/${id}/backup/${mine.id}`)).status).toBe(200);
      expect((await downloadBytes(client, `/api/servers/${id}/backup/download/${mine.id}`)).res.status).toBe(
        200,
      );
      const refused: [string, string, string][] = [
        ["POST", `/api/servers/${id}/backup/create?name=x`, "server.backup.create"],
        ["POST", `/api/servers/${id}/backup/restore/${mine.id}`, "server.backup.restore"],
        ["DELETE", `/api/servers/${id}/backup/${mine.id}`, "server.backup.delete"],
      ];
      for (const [method, url, scope] of refused) {
        expectError(await client.call(method, url), 403, "ErrMissingScope", { scope });
      }
      // Holding the scopes on one server gives nothing on another, and ids do not cross servers.
      expect((await client.get(`/api/servers/${other}/backup`)).status).toBe(403);
      expectError(await client.get(`/api/servers/${id}/backup/${theirs.id}`), 404, "ErrBackupNotFound");
      expectError(
        await client.get(`/api/servers/${id}/backup/download/${theirs.id}`),
        404,
        "ErrBackupNotFound",
      );

      await setServerScopes(panel(), user.email, id, [
        "server.view",
        "server.backup.create",
        "server.backup.restore",
        "server.backup.delete",
      ]);
      for (const url of [
        `/api/servers/${id}/backup`,
        `/api/servers/${id}/backup/${mine.id}`,
        `/api/servers/${id}/backup/download/${mine.id}`,
      ]) {
        expectError(await client.get(url), 403, "ErrMissingScope", { scope: "server.backup.view" });
      }
      expect((await client.post(`/api/servers/${id}/backup/create?name=by-user`)).status).toBe(204);
      const byUser = await settledBackup(admin, id, (await backupNamed(admin, id, "by-user")).id);
      expect((await client.post(`/api/servers/${id}/backup/restore/${byUser.id}`)).status).toBe(204);
      expectError(await client.delete(`/api/servers/${id}/backup/${theirs.id}`), 404, "ErrBackupNotFound");
      expect((await client.delete(`/api/servers/${id}/backup/${byUser.id}`)).status).toBe(204);
    });

    it("deleting a server deletes its backups: files on the node and rows in the panel", async () => {
      const other = "b0000004";
      const folder = path.join(localDataDir(), "backups", other);
      expect(fs.readdirSync(folder).filter((n) => n.endsWith(".tar.gz")).length).toBe(1);
      expect((await admin.delete(`/api/servers/${other}`)).status).toBe(204);
      expect(fs.existsSync(folder)).toBe(false);
      const rows = await withPanelDb(panel(), (db) =>
        db.selectFrom("backups").select("id").where("server_id", "=", other).execute(),
      );
      expect(rows).toEqual([]);
    });
  });
});
