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
import { freePort } from "../support/free-port.ts";
import { setGlobalScopes, withPanelDb } from "../support/panel-db.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { s3Keys as keys, S3StandIn } from "../support/s3-stand-in.ts";
import {
  adminClient,
  type PanelClient as Client,
  registeredClient,
  usePanel,
} from "../support/test-panel.ts";

/**
 * Backups to S3-compatible storage. s3rver (an S3 emulator from npm, run in
 * this process on 127.0.0.1) stands in for the real service: the node talks
 * to it with the AWS SDK exactly as it would to AWS, MinIO or Garage.
 */

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-s3-test-"));
let s3: S3StandIn;
/** Cuts the connection of a multipart upload's second part: a network failure midway. */
let cutSecondPart = false;

const s3Target = (prefix: string, overrides: Record<string, unknown> = {}) => ({
  ...s3.target(prefix),
  ...overrides,
});
const objectsUnder = (prefix: string) => s3.keysUnder(prefix);
const objectBytes = (key: string) => s3.bytes(key);

function roundTrip(
  label: string,
  serverId: string,
  setup: () => { api: Client; node: number; dataDir: string },
) {
  describe(`S3 backups of ${label}`, () => {
    let api: Client;
    let node: number;
    let dataDir: string;
    let root: string;
    const prefix = `panel-a/${serverId}-node/`;
    const key = (fileName: string) => `${prefix}${serverId}/${fileName}`;
    let backup: Backup;

    beforeAll(async () => {
      ({ api, node, dataDir } = setup());
      const created = await api.put(`/api/servers/${serverId}`, { ...echoDefinition(), name: label, node });
      expect(created.status, created.text).toBe(200);
      root = path.join(dataDir, "servers", serverId);
      fs.mkdirSync(path.join(root, "world/region"), { recursive: true });
      fs.writeFileSync(path.join(root, "server.properties"), "motd=original\n");
      // Over 8 MiB of incompressible data: a multipart upload of two parts.
      fs.writeFileSync(path.join(root, "world/level.dat"), randomBytes(9 * 1024 * 1024));
      fs.writeFileSync(path.join(root, "world/region/r.0.0.mca"), "region ".repeat(10_000));
      fs.symlinkSync("world/region/r.0.0.mca", path.join(root, "latest"));
    });

    it("an unreachable target is refused when set; the node keeps its disk", async () => {
      const closed = `http://127.0.0.1:${await freePort()}`;
      const res = await api.put(`/api/nodes/${node}`, {
        backupTarget: s3Target(prefix, { endpoint: closed }),
      });
      expectError(res, 502, "ErrBackupTargetUnreachable");
      expect(res.body.error.metadata.reason).toBeTruthy();
      expect((await api.get(`/api/nodes/${node}`)).body.backupTarget).toEqual({ type: "local" });
    });

    it("keeps the target, answers it without the secret key, and the node holds it 0600", async () => {
      const res = await api.put(`/api/nodes/${node}`, { backupTarget: s3Target(prefix) });
      expect(res.status, res.text).toBe(204);
      const got = await api.get(`/api/nodes/${node}`);
      expect(got.body.backupTarget).toEqual({
        type: "s3",
        endpoint: s3.endpoint,
        region: "us-east-1",
        bucket: "outpost-backups",
        prefix,
        accessKeyId: keys.accessKeyId,
        secretAccessKey: "",
        secretAccessKeySet: true,
        forcePathStyle: true,
      });
      // Saving the form back with the key left empty keeps the stored one.
      const again = await api.put(`/api/nodes/${node}`, {
        backupTarget: s3Target(prefix, { secretAccessKey: "" }),
      });
      expect(again.status, again.text).toBe(204);
      const file = path.join(dataDir, "backup-target.json");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(file, "utf8")).secretAccessKey).toBe(keys.secretAccessKey);
    });

    it("streams a backup to the bucket, none of it on the node's disk; lists it ready with the object's size", async () => {
      const res = await api.post(`/api/servers/${serverId}/backup/create?name=to-s3`);
      expect(res.status, res.text).toBe(204);
      backup = await settledBackup(api, serverId, (await backupNamed(api, serverId, "to-s3")).id);
      expect(backup.state, backup.error).toBe("ready");
      expect(await objectsUnder(prefix)).toEqual([key(backup.fileName)]);
      expect(backup.size).toBe((await objectBytes(key(backup.fileName))).length);
      // On the node's disk only its note of facts (hash, size, pins: issue 38), never the archive.
      const local = path.join(dataDir, "backups", serverId);
      expect(fs.existsSync(local) ? fs.readdirSync(local) : []).toEqual([`${backup.fileName}.facts`]);
    });

    it("downloads the object through the panel, byte for byte", async () => {
      const { res, bytes } = await downloadBytes(
        api,
        `/api/servers/${serverId}/backup/download/${backup.id}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe(String(backup.size));
      expect(bytes.equals(await objectBytes(key(backup.fileName)))).toBe(true);
      const file = path.join(scratch, `${serverId}.tar.gz`);
      fs.writeFileSync(file, bytes);
      const out = path.join(scratch, `${serverId}-unpacked`);
      fs.mkdirSync(out);
      execFileSync("tar", ["-xzf", file, "-C", out]);
      expect(treeOf(out)).toEqual(treeOf(root));
    });

    it("restores from the bucket", async () => {
      const original = treeOf(root);
      fs.writeFileSync(path.join(root, "server.properties"), "motd=changed\n");
      fs.rmSync(path.join(root, "world"), { recursive: true });
      fs.writeFileSync(path.join(root, "added.txt"), "not in the backup");
      const res = await api.post(`/api/servers/${serverId}/backup/restore/${backup.id}`);
      expect(res.status, res.text).toBe(204);
      expect(treeOf(root)).toEqual(original);
    });

    it("deletes: the object and the row are gone", async () => {
      const res = await api.delete(`/api/servers/${serverId}/backup/${backup.id}`);
      expect(res.status, res.text).toBe(204);
      expect(await objectsUnder(prefix)).toEqual([]);
      expect((await api.get(`/api/servers/${serverId}/backup`)).body).toEqual([]);
    });

    it("a backup while the bucket cannot be reached fails clearly and leaves no object, upload or row", async () => {
      await s3.stop();
      try {
        const res = await api.post(`/api/servers/${serverId}/backup/create?name=unreachable`);
        expectError(res, 502, "ErrBackupTargetUnreachable");
        expect(res.body.error.msg).toContain("backup storage");
        // The panel lists what it knows, and the node cannot list the bucket: no row either way.
        expect((await api.get(`/api/servers/${serverId}/backup`)).body).toEqual([]);
      } finally {
        await s3.start();
      }
      expect((await api.get(`/api/servers/${serverId}/backup`)).body).toEqual([]);
      expect(await objectsUnder(prefix)).toEqual([]);
    });

    it("an upload cut midway fails with the reason, aborts the multipart upload and leaves no object", async () => {
      const requests = s3.requests;
      requests.length = 0;
      cutSecondPart = true;
      try {
        expect((await api.post(`/api/servers/${serverId}/backup/create?name=cut`)).status).toBe(204);
        const failed = await settledBackup(api, serverId, (await backupNamed(api, serverId, "cut")).id);
        expect(failed.state).toBe("failed");
        expect(failed.error).toContain("backup storage");
        expect(failed.size).toBe(0);
        // The node asked the store to abort the upload it had begun (s3rver itself does not implement it).
        const begun = requests.find((r) => r.startsWith("POST ") && r.includes("?uploads"));
        expect(begun).toBeTruthy();
        expect(requests.some((r) => r.startsWith("DELETE ") && /[?&]uploadId=/.test(r))).toBe(true);
        expect(await objectsUnder(prefix)).toEqual([]);
        // A failed backup is removed like any other.
        expect((await api.delete(`/api/servers/${serverId}/backup/${failed.id}`)).status).toBe(204);
        expect((await api.get(`/api/servers/${serverId}/backup`)).body).toEqual([]);
      } finally {
        cutSecondPart = false;
      }
    });

    it("back to the node's disk: the node forgets the target and its keys", async () => {
      const res = await api.put(`/api/nodes/${node}`, { backupTarget: { type: "local" } });
      expect(res.status, res.text).toBe(204);
      expect((await api.get(`/api/nodes/${node}`)).body.backupTarget).toEqual({ type: "local" });
      expect(fs.existsSync(path.join(dataDir, "backup-target.json"))).toBe(false);
    });
  });
}

describe("backup targets", () => {
  const panel = usePanel();
  let admin: Client;
  let daemon: DaemonProcess | undefined;
  let remoteNode = -1;

  beforeAll(async () => {
    s3 = await S3StandIn.start();
    s3.onRequest = (req) => {
      if (cutSecondPart && /[?&]partNumber=2(&|$)/.test(req.url ?? "")) req.socket.destroy();
    };
    admin = await adminClient(panel());
    ({ nodeId: remoteNode, daemon } = await addRemoteNode(admin, "s3-remote"));
  });
  afterAll(async () => {
    await daemon?.destroy();
    await s3?.destroy();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  roundTrip("the local node", "c5000001", () => ({
    api: admin,
    node: 0,
    dataDir: path.join(panel().dataDir, "node"),
  }));
  roundTrip("a remote node", "c5000002", () => ({
    api: admin,
    node: remoteNode,
    dataDir: daemon?.config.dataDir ?? "",
  }));

  it("checks each field with its own error", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ endpoint: "" }, "ErrFieldRequired", "endpoint"],
      [{ endpoint: "ftp://127.0.0.1" }, "ErrFieldInvalid", "endpoint"],
      [{ endpoint: "http://user:pw@127.0.0.1" }, "ErrFieldInvalid", "endpoint"],
      [{ bucket: "Not_A_Bucket" }, "ErrFieldInvalid", "bucket"],
      [{ prefix: "a/../b" }, "ErrFieldInvalid", "prefix"],
      [{ accessKeyId: " " }, "ErrFieldRequired", "accessKeyId"],
      [{ secretAccessKey: "" }, "ErrFieldRequired", "secretAccessKey"],
    ];
    for (const [change, code, field] of cases) {
      const res = await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: s3Target("x/", change) });
      expectError(res, 400, code);
      expect(res.body.error.metadata.field).toBe(field);
    }
    const odd = await admin.put(`/api/nodes/${remoteNode}`, { backupTarget: { type: "ftp" } });
    expectError(odd, 400, "ErrFieldInvalid");
    expect(odd.body.error.metadata.field).toBe("type");
  });

  it("stores the secret key sealed, and answers it to nobody", async () => {
    // s3rver checks no signature on HeadBucket, so any key is kept here.
    const secret = `secret-${randomBytes(8).toString("hex")}`;
    const res = await admin.put(`/api/nodes/${remoteNode}`, {
      backupTarget: s3Target("sealed/", { secretAccessKey: secret }),
    });
    expect(res.status, res.text).toBe(204);
    const stored = await withPanelDb(panel(), (db) =>
      db.selectFrom("backup_targets").selectAll().where("node_id", "=", remoteNode).executeTakeFirstOrThrow(),
    );
    expect(stored.secret).toMatch(/^sealed:v1:/);
    expect(JSON.stringify(stored)).not.toContain(secret);
    for (const url of [`/api/nodes/${remoteNode}`, "/api/nodes"]) {
      const answer = await admin.get(url);
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toMatch(/"secretAccessKey":"[^"]/);
    }
  });

  it("is an administrator's alone: a user who may edit nodes neither sees nor sets it", async () => {
    const user = newUser("s3edit");
    const api = await registeredClient(panel(), user);
    await setGlobalScopes(panel(), user.email, ["login", "nodes.view", "nodes.edit"]);
    const seen = await api.get(`/api/nodes/${remoteNode}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.backupTarget).toBeUndefined();
    const set = await api.put(`/api/nodes/${remoteNode}`, { backupTarget: { type: "local" } });
    expectError(set, 403, "ErrMissingScope");
    // The target is as the administrator left it.
    expect((await admin.get(`/api/nodes/${remoteNode}`)).body.backupTarget.type).toBe("s3");
    // Other changes to the node still work for them.
    expect((await api.put(`/api/nodes/${remoteNode}`, { name: "s3-remote-renamed" })).status).toBe(204);
  });
});
