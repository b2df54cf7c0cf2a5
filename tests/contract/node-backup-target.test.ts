import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";
import { S3StandIn } from "../support/s3-stand-in.ts";

/**
 * The backup target joins the NodeClient contract: the same calls on the
 * in-process LocalNode and on a RemoteNode talking to a real daemon, with
 * s3rver on 127.0.0.1 standing in for S3.
 */
for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`NodeClient contract, backup target: ${name}`, () => {
    let subject: NodeUnderTest;
    let s3: S3StandIn;
    const id = "5e000001";
    const prefix = `contract-${name}/`;
    beforeAll(async () => {
      s3 = await S3StandIn.start();
      subject = await make();
      await subject.client.servers.createServer(id, echoDefinition());
      fs.writeFileSync(path.join(subject.dataDir, "servers", id, "hello.txt"), "hello from the node\n");
    });
    afterAll(async () => {
      await subject?.close();
      await s3?.destroy();
    });

    it("refuses a target it cannot reach, with the reason", async () => {
      await expect(
        subject.client.backups.setTarget({ ...s3.target(prefix), bucket: "no-such-bucket" }),
      ).rejects.toMatchObject({ code: "ErrBackupTargetUnreachable", status: 502 });
    });

    it("a backup on the disk from before the target stays listed and readable, and is deleted even while the bucket is down", async () => {
      const fileName = "0b5e0000-0000-4000-8000-0000000000d1.tar.gz";
      await subject.client.backups.create(id, fileName);
      await waitUntil(async () => (await subject.client.backups.list(id))[0]?.state === "ready", 30_000);
      const onDisk = fs.statSync(path.join(subject.dataDir, "backups", id, fileName)).size;
      await subject.client.backups.setTarget(s3.target(prefix));
      expect(await subject.client.backups.list(id)).toEqual([
        expect.objectContaining({ fileName, state: "ready", size: onDisk }),
      ]);
      const { size, body } = await subject.client.backups.download(id, fileName);
      body.destroy();
      expect(size).toBe(onDisk);
      await s3.stop();
      try {
        await subject.client.backups.delete(id, fileName);
      } finally {
        await s3.start();
      }
      expect(fs.existsSync(path.join(subject.dataDir, "backups", id, fileName))).toBe(false);
      expect(await subject.client.backups.list(id)).toEqual([]);
    });

    it("backs up to the bucket, lists, reads and deletes there", async () => {
      await subject.client.backups.setTarget(s3.target(prefix));
      const fileName = "0b5e0000-0000-4000-8000-000000000001.tar.gz";
      await subject.client.backups.create(id, fileName);
      await waitUntil(async () => {
        const found = (await subject.client.backups.list(id)).find((b) => b.fileName === fileName);
        return found?.state === "ready";
      }, 30_000);
      const key = `${prefix}${id}/${fileName}`;
      expect(await s3.keysUnder(prefix)).toEqual([key]);
      const [listed] = await subject.client.backups.list(id);
      const stored = await s3.bytes(key);
      expect(listed).toMatchObject({ fileName, state: "ready", size: stored.length });
      const { size, body } = await subject.client.backups.download(id, fileName);
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      expect(size).toBe(stored.length);
      expect(Buffer.concat(chunks).equals(stored)).toBe(true);
      await subject.client.backups.delete(id, fileName);
      expect(await s3.keysUnder(prefix)).toEqual([]);
      expect(await subject.client.backups.list(id)).toEqual([]);
    });

    it("a backup while the bucket is down is refused before anything is written", async () => {
      await s3.stop();
      try {
        await expect(
          subject.client.backups.create(id, "0b5e0000-0000-4000-8000-000000000002.tar.gz"),
        ).rejects.toMatchObject({ code: "ErrBackupTargetUnreachable" });
        await expect(subject.client.backups.list(id)).rejects.toMatchObject({
          code: "ErrBackupTargetUnreachable",
        });
      } finally {
        await s3.start();
      }
      expect(await subject.client.backups.list(id)).toEqual([]);
      await subject.client.backups.setTarget(null);
      expect(fs.existsSync(path.join(subject.dataDir, "backup-target.json"))).toBe(false);
    });
  });
}
