import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diskBudget, folderBytes, walkBytes } from "../../../server/daemon/servers/disk-quota.ts";

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
    await expect(diskBudget({ folders: [dir] })).resolves.toBeUndefined();
    fs.writeFileSync(path.join(dir, "full.bin"), Buffer.alloc(1024 * 1024));
    await expect(diskBudget({ limitMiB: 1, folders: [dir] })).rejects.toMatchObject({
      status: 507,
      code: "ErrDiskLimit",
      metadata: { limit: 1 },
    });
    const budget = await diskBudget({ limitMiB: 2, folders: [dir] });
    expect(budget).toBeDefined();
    budget?.take(512 * 1024);
    expect(() => budget?.take(512 * 1024)).toThrow(/disk limit/);
  });
});
