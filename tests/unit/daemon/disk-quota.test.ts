import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DiskLedger } from "../../../server/daemon/servers/disk-ledger.ts";
import { folderBytes, walkBytes } from "../../../server/daemon/servers/disk-quota.ts";

const MiB = 1024 * 1024;

describe("disk quota", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-disk-quota-"));
    fs.writeFileSync(path.join(dir, "a.bin"), Buffer.alloc(1000));
    fs.mkdirSync(path.join(dir, "sub"));
    fs.writeFileSync(path.join(dir, "sub", "b.bin"), Buffer.alloc(500));
    // A link counts as itself, never as what it points to.
    fs.symlinkSync("/usr/bin", path.join(dir, "sub", "link"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("measures a folder with du, and the same files by walking it", async () => {
    expect(await walkBytes(dir)).toBe(1000 + 500 + "/usr/bin".length);
    const measured = await folderBytes(dir);
    // du also counts the two folders themselves.
    expect(measured).toBeGreaterThanOrEqual(1508);
    expect(measured).toBeLessThan(1508 + 2 * 64 * 1024);
    expect(await folderBytes(path.join(dir, "missing"))).toBe(0);
  });

  it("refuses up front at the limit, and counts what goes by against the room left", async () => {
    await expect(new DiskLedger(() => ({ folders: [dir] })).budget()).resolves.toBeUndefined();
    fs.writeFileSync(path.join(dir, "full.bin"), Buffer.alloc(MiB));
    await expect(new DiskLedger(() => ({ limitMiB: 1, folders: [dir] })).budget()).rejects.toMatchObject({
      status: 507,
      code: "ErrDiskLimit",
      metadata: { limit: 1 },
    });
    const budget = await new DiskLedger(() => ({ limitMiB: 2, folders: [dir] })).budget();
    expect(budget).toBeDefined();
    budget?.take(512 * 1024);
    expect(() => budget?.take(512 * 1024)).toThrow(/disk limit/);
  });

  it("gives concurrent pieces of work one room, and gives back only what a failed piece removed", async () => {
    const ledger = new DiskLedger(() => ({ limitMiB: 1, folders: [dir] }));
    const used = await ledger.usage();
    const room = MiB - used;
    const [a, b] = [await ledger.budget(), await ledger.budget()];
    a?.take(room / 2);
    b?.take(room / 2);
    // Each alone had the whole room; together they have it once.
    expect(() => a?.take(1)).toThrow(/disk limit/);
    expect(() => b?.take(1)).toThrow(/disk limit/);
    // A new piece while they fill the room is refused up front.
    await expect(ledger.budget()).rejects.toMatchObject({ code: "ErrDiskLimit" });
    // A failed piece whose bytes are gone gives them back to the others.
    a?.end(false);
    b?.take(room / 4);
    // A piece that ended with its bytes kept still counts for those that run on.
    const c = await ledger.budget();
    b?.end(true);
    c?.take(room / 4);
    expect(() => c?.take(1)).toThrow(/disk limit/);
    c?.end(false);
  });

  it("reuses a measurement for a while, and measures anew once the daemon changed the files", async () => {
    const ledger = new DiskLedger(() => ({ limitMiB: 1, folders: [dir] }));
    const before = await ledger.usage();
    fs.writeFileSync(path.join(dir, "more.bin"), Buffer.alloc(2 * MiB));
    expect(await ledger.usage()).toBe(before);
    expect(await ledger.overLimit()).toBeUndefined();
    ledger.forget();
    expect(await ledger.usage()).toBeGreaterThan(before + 2 * MiB - 1);
    expect(await ledger.overLimit()).toBe(1);
    fs.rmSync(path.join(dir, "more.bin"));
    expect(await ledger.overLimit(0)).toBeUndefined();
  });

  it("raises a kept measurement by what a finished piece wrote, instead of measuring again", async () => {
    const ledger = new DiskLedger(() => ({ limitMiB: 1, folders: [dir] }));
    const before = await ledger.usage();
    await ledger.reserve(4096, async () => {});
    // Nothing was written on disk: the raised value is the ledger's own count.
    expect(await ledger.usage()).toBe(before + 4096);
    // A failed piece gives its bytes back and leaves the measurement alone.
    await expect(
      ledger.reserve(4096, async () => {
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await ledger.usage()).toBe(before + 4096);
  });
});
