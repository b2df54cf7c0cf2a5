import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { S3StandIn } from "../support/s3-stand-in.ts";
import { wingsBackup } from "../support/wings-backup.ts";

/**
 * Adopting a backup another panel's Wings left in the node's bucket (issue 40's import): the
 * same calls on the in-process LocalNode and on a RemoteNode talking to a real daemon, with
 * s3rver on 127.0.0.1 standing in for S3 and a real Wings-shaped tar.gz in it.
 */
for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`NodeClient contract, adopted backups: ${name}`, () => {
    let subject: NodeUnderTest;
    let s3: S3StandIn;
    const id = "5e0000a1";
    // Wings keeps a backup at `<server uuid>/<backup uuid>.tar.gz`, at the bucket's root.
    const serverUuid = `0ld5e4e4-0000-4000-8000-00000000000${name === "LocalNode" ? 1 : 2}`;
    const prefix = `adopt-${name}/`;
    const createdAt = Date.parse("2024-05-01T12:00:00Z");
    const files = { "server.properties": "motd=from wings\n", "world/level.dat": Buffer.alloc(70_000, 5) };
    const read = async (body: NodeJS.ReadableStream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    beforeAll(async () => {
      s3 = await S3StandIn.start();
      subject = await make();
      await subject.client.servers.createServer(id, echoDefinition());
    });
    afterAll(async () => {
      await subject?.close();
      await s3?.destroy();
    });

    it("without a bucket there is nothing to adopt from, and it says so", async () => {
      await expect(subject.client.backups.objectSize(`${serverUuid}/x.tar.gz`)).rejects.toMatchObject({
        code: "ErrBackupTargetUnreachable",
        status: 502,
      });
      await expect(
        subject.client.backups.adopt(id, "0b5e0000-0000-4000-8000-0000000000a0.tar.gz", {
          key: `${serverUuid}/0b5e0000-0000-4000-8000-0000000000a0.tar.gz`,
          pinned: false,
          createdAt,
        }),
      ).rejects.toMatchObject({ code: "ErrBackupTargetUnreachable" });
    });

    it("adopts the object where it is: listed, read, verified against Wings' SHA-1, restored, deleted there", async () => {
      await subject.client.backups.setTarget(s3.target(prefix));
      const fileName = "0b5e0000-0000-4000-8000-0000000000a1.tar.gz";
      const key = `${serverUuid}/${fileName}`;
      const wings = wingsBackup(files, "dot");
      await s3.put(key, wings.bytes);
      expect(await subject.client.backups.objectSize(key)).toBe(wings.bytes.length);
      expect(await subject.client.backups.objectSize(`${serverUuid}/missing.tar.gz`)).toBeNull();

      const adoption = { key, pinned: true, createdAt, sha1: wings.sha1 };
      const adopted = await subject.client.backups.adopt(id, fileName, adoption);
      const listed = { fileName, state: "ready", size: wings.bytes.length, createdAt, pinned: true };
      expect(adopted).toMatchObject(listed);
      expect(await subject.client.backups.list(id)).toEqual([expect.objectContaining(listed)]);
      // The same adoption again changes nothing; another object under the same name is refused.
      expect(await subject.client.backups.adopt(id, fileName, adoption)).toMatchObject(listed);
      await expect(
        subject.client.backups.adopt(id, fileName, { ...adoption, key: `${serverUuid}/other.tar.gz` }),
      ).rejects.toMatchObject({ code: "ErrFileExists", status: 409 });

      const { size, body } = await subject.client.backups.download(id, fileName);
      expect(size).toBe(wings.bytes.length);
      expect((await read(body)).equals(wings.bytes)).toBe(true);
      expect(await subject.client.backups.files(id, fileName, "")).toEqual([
        { name: "world", type: "directory", size: 0 },
        { name: "server.properties", type: "file", size: files["server.properties"].length },
      ]);

      // Not yet verified here: the first verification checks Wings' SHA-1, then keeps our SHA-256.
      expect((await subject.client.backups.list(id))[0]?.sha256 ?? "").toBe("");
      const sha256 = createHash("sha256").update(wings.bytes).digest("hex");
      expect(await subject.client.backups.verify(id, fileName)).toEqual({ ok: true });
      expect((await subject.client.backups.list(id))[0]).toMatchObject({ sha256 });

      const root = path.join(subject.dataDir, "servers", id);
      // Some of it (its entries are named `./world/…`), then all of it.
      fs.writeFileSync(path.join(root, "server.properties"), "motd=changed since\n");
      await subject.client.backups.restore(id, fileName, ["world"]);
      expect(fs.statSync(path.join(root, "world", "level.dat")).size).toBe(70_000);
      expect(fs.readFileSync(path.join(root, "server.properties"), "utf8")).toBe("motd=changed since\n");
      await subject.client.backups.restore(id, fileName);
      expect(fs.readFileSync(path.join(root, "server.properties"), "utf8")).toBe("motd=from wings\n");
      expect(fs.statSync(path.join(root, "world", "level.dat")).size).toBe(70_000);

      // Nothing was copied under the node's prefix; deleting it deletes Wings' object.
      expect(await s3.keysUnder(prefix)).toEqual([]);
      await subject.client.backups.delete(id, fileName);
      expect(await s3.keysUnder(serverUuid)).toEqual([]);
      expect(await subject.client.backups.list(id)).toEqual([]);
    });

    it("a missing object is not adopted; one whose bytes are not those Wings recorded fails its verification", async () => {
      await subject.client.backups.setTarget(s3.target(prefix));
      const fileName = "0b5e0000-0000-4000-8000-0000000000a2.tar.gz";
      const key = `${serverUuid}/${fileName}`;
      await expect(
        subject.client.backups.adopt(id, fileName, { key, pinned: false, createdAt }),
      ).rejects.toMatchObject({ code: "ErrBackupNotFound", status: 404 });
      expect(await subject.client.backups.list(id)).toEqual([]);

      const wings = wingsBackup(files, "plain");
      await s3.put(key, wings.bytes);
      const otherSha1 = createHash("sha1").update("something else").digest("hex");
      await subject.client.backups.adopt(id, fileName, { key, pinned: false, createdAt, sha1: otherSha1 });
      expect(await subject.client.backups.verify(id, fileName)).toEqual({
        ok: false,
        reason: "its SHA-1 is not the one the panel it came from recorded",
      });
      await subject.client.backups.delete(id, fileName);
    });

    it("keeps a backup from Wings' own disk on the node's disk, checked against its SHA-1; a damaged one is refused and nothing kept", async () => {
      // The bucket is still the node's target: a received backup goes to its disk all the same.
      const fileName = "0b5e0000-0000-4000-8000-0000000000a3.tar.gz";
      const wings = wingsBackup(files, "plain");
      const sha256 = createHash("sha256").update(wings.bytes).digest("hex");
      const receipt = { pinned: false, createdAt, sha1: wings.sha1 };
      const listed = { fileName, state: "ready", size: wings.bytes.length, createdAt, pinned: false, sha256 };
      expect(
        await subject.client.backups.receive(id, fileName, Readable.from([wings.bytes]), receipt),
      ).toMatchObject(listed);
      const stored = path.join(subject.dataDir, "backups", id, fileName);
      expect(fs.readFileSync(stored).equals(wings.bytes)).toBe(true);
      expect(await subject.client.backups.list(id)).toEqual([expect.objectContaining(listed)]);
      // Received again (a run cut short): answered as it is.
      expect(
        await subject.client.backups.receive(id, fileName, Readable.from([wings.bytes]), receipt),
      ).toMatchObject(listed);
      expect(await subject.client.backups.verify(id, fileName)).toEqual({ ok: true });
      const root = path.join(subject.dataDir, "servers", id);
      fs.rmSync(path.join(root, "world"), { recursive: true, force: true });
      await subject.client.backups.restore(id, fileName);
      expect(fs.statSync(path.join(root, "world", "level.dat")).size).toBe(70_000);

      const damaged = "0b5e0000-0000-4000-8000-0000000000a4.tar.gz";
      const otherSha1 = createHash("sha1").update("something else").digest("hex");
      await expect(
        subject.client.backups.receive(id, damaged, Readable.from([wings.bytes]), {
          ...receipt,
          sha1: otherSha1,
        }),
      ).rejects.toMatchObject({ code: "ErrBackupFailed" });
      await expect(
        subject.client.backups.receive(id, damaged, Readable.from([Buffer.from("not an archive")]), {
          pinned: false,
          createdAt,
        }),
      ).rejects.toMatchObject({ code: "ErrBackupFailed" });
      expect(fs.readdirSync(path.dirname(stored)).filter((n) => n.startsWith(damaged))).toEqual([]);
      await subject.client.backups.delete(id, fileName);
      expect(await subject.client.backups.list(id)).toEqual([]);
    });
  });
}
