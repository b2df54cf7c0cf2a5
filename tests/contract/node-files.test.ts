import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileRead } from "../../server/contract/node/file-wire.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { type NodeUnderTest, nodeImplementations } from "../support/node-pair.ts";
import { waitUntil } from "../support/poll.ts";

/**
 * NodeFiles, one contract for both nodes: what the panel gets from
 * LocalNode (FileOps in-process) must be what it gets from RemoteNode
 * (RemoteFiles over the daemon's routes), answer for answer and error for
 * error.
 */
const id = "f11ec0de";

/** How many descriptors of this machine's processes (ours: this one and the daemon) hold the file open. */
function openersOf(file: string): number {
  let count = 0;
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let fds: string[] = [];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === file) count++;
      } catch {
        // closed meanwhile
      }
    }
  }
  return count;
}

async function bytesOf(read: FileRead): Promise<string> {
  if (read.kind !== "file") throw new Error(`expected a file, got ${read.kind}`);
  return text(read.body);
}

for (const [name, make] of Object.entries(nodeImplementations)) {
  describe(`NodeFiles contract: ${name}`, () => {
    let subject: NodeUnderTest;
    /** Where the node keeps the server's files. */
    const root = () => path.join(subject.dataDir, "servers", id);
    const files = () => subject.client.files;
    beforeAll(async () => {
      subject = await make();
      await subject.client.servers.createServer(id, echoDefinition());
    });
    afterAll(async () => {
      await subject?.close();
    });

    it("writes a stream and reads it back whole, in a range, and as a listing", async () => {
      await files().write(id, "dir/héllo.txt", Readable.from([Buffer.from("hello "), Buffer.from("world")]));
      const whole = await files().read(id, "dir/héllo.txt");
      expect(whole).toMatchObject({ kind: "file", name: "héllo.txt", size: 11 });
      expect(whole.kind === "file" && whole.range).toBeUndefined();
      expect(await bytesOf(whole)).toBe("hello world");
      const part = await files().read(id, "/dir/héllo.txt", "bytes=6-");
      expect(part).toMatchObject({ kind: "file", size: 11, range: { start: 6, end: 10 } });
      expect(await bytesOf(part)).toBe("world");

      const listing = await files().read(id, "dir");
      expect(listing.kind).toBe("folder");
      if (listing.kind === "folder") {
        expect(listing.entries).toEqual([
          { name: "..", isFile: false },
          { name: "héllo.txt", isFile: true, size: 11, modifyTime: expect.any(Number), extension: ".txt" },
        ]);
      }
      expect(fs.readFileSync(path.join(root(), "dir", "héllo.txt"), "utf8")).toBe("hello world");
    });

    it("a dropped download closes the file it opened", async () => {
      // Large enough that the node is still reading it when the download is dropped: a few MB
      // fit in the loopback socket's buffers, and the node would have closed it already.
      await files().write(id, "big.bin", Readable.from([randomBytes(64 * 1024 * 1024)]));
      const file = path.join(root(), "big.bin");
      const read = await files().read(id, "big.bin");
      if (read.kind !== "file") throw new Error("not a file");
      expect(openersOf(file)).toBeGreaterThan(0);
      read.body.destroy();
      await waitUntil(async () => openersOf(file) === 0, 5000, 20);
      await files().remove(id, "big.bin");
      await expect(files().read(id, "big.bin")).rejects.toMatchObject({
        status: 404,
        code: "ErrFileNotFound",
      });
    });

    it("makes folders, moves, archives, extracts and removes", async () => {
      await files().makeFolder(id, "a/b/c");
      await files().write(id, "a/b/c/file.txt", Readable.from(["inside"]));
      await files().move(id, "a/b", "moved/b");
      await files().archive(id, "out.tar.gz", ["moved"]);
      await files().extract(id, "out.tar.gz", "unpacked");
      expect(await bytesOf(await files().read(id, "unpacked/moved/b/c/file.txt"))).toBe("inside");
      await files().extract(id, "/out.tar.gz");
      expect(await bytesOf(await files().read(id, "moved/b/c/file.txt"))).toBe("inside");
      await files().remove(id, "unpacked");
      expect(fs.existsSync(path.join(root(), "unpacked"))).toBe(false);
    });

    it("gives up making folders once the caller's signal is aborted, and refuses a path too deep", async () => {
      const gone = new AbortController();
      gone.abort(new Error("the client went away"));
      await expect(files().makeFolder(id, "abandoned/a/b/c", gone.signal)).rejects.toThrow();
      expect(fs.existsSync(path.join(root(), "abandoned"))).toBe(false);
      const deep = Array.from({ length: 129 }, () => "d").join("/");
      await expect(files().makeFolder(id, `toodeep/${deep}`)).rejects.toMatchObject({
        status: 400,
        code: "ErrPathTooDeep",
      });
      expect(fs.existsSync(path.join(root(), "toodeep"))).toBe(false);
    });

    it("fails with the same codes and statuses", async () => {
      const refusals: [() => Promise<unknown>, number, string][] = [
        [() => files().read(id, "missing"), 404, "ErrFileNotFound"],
        [() => files().read(id, "../x"), 400, "ErrIllegalFileAccess"],
        [() => files().read(id, "dir/héllo.txt", "bytes=50-"), 416, "ErrRangeNotSatisfiable"],
        [() => files().write(id, "../x", Readable.from(["x"])), 400, "ErrIllegalFileAccess"],
        [() => files().write(id, "dir", Readable.from(["x"])), 400, "ErrFileExists"],
        [() => files().makeFolder(id, "dir/héllo.txt"), 400, "ErrFileExists"],
        [() => files().remove(id, ""), 400, "ErrIllegalFileAccess"],
        [() => files().remove(id, "missing"), 404, "ErrFileNotFound"],
        [() => files().move(id, "dir/héllo.txt", "a"), 400, "ErrFileExists"],
        [() => files().move(id, "missing", "b"), 404, "ErrFileNotFound"],
        [() => files().archive(id, "x.zip", []), 400, "ErrFieldRequired"],
        [() => files().archive(id, "x.zip", ["../"]), 400, "ErrIllegalFileAccess"],
        [() => files().extract(id, "missing.zip"), 404, "ErrFileNotFound"],
        [() => files().read("nosuch01", ""), 404, "ErrServerNotFound"],
      ];
      for (const [call, status, code] of refusals)
        await expect(call()).rejects.toMatchObject({ status, code });
      const unsatisfiable = await files()
        .read(id, "dir/héllo.txt", "bytes=50-")
        .catch((error) => error);
      expect(unsatisfiable.metadata).toEqual({ size: 11 });
    });
  });
}
