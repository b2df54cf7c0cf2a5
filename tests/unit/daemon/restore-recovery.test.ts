import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { recoverInterruptedRestores } from "../../../server/daemon/backups/backup-restore.ts";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-recover-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};

it("puts a server's files back when a restore stopped between its two renames", async () => {
  write(".aa11bb22.old-0a1b2c/world.dat", "before");
  write(".aa11bb22.restore-0a1b2c/world.dat", "half");
  const done = await recoverInterruptedRestores(dir);
  expect(fs.readFileSync(path.join(dir, "aa11bb22/world.dat"), "utf8")).toBe("before");
  expect(fs.readdirSync(dir)).toEqual(["aa11bb22"]);
  expect(done).toHaveLength(2);
});

it("removes the old folder of a restore that swapped but did not clean up, keeping the restored files", async () => {
  write("aa11bb22/world.dat", "restored");
  write(".aa11bb22.old-0a1b2c/world.dat", "before");
  await recoverInterruptedRestores(dir);
  expect(fs.readFileSync(path.join(dir, "aa11bb22/world.dat"), "utf8")).toBe("restored");
  expect(fs.readdirSync(dir)).toEqual(["aa11bb22"]);
});

it("removes what a deletion cut short left, even where a new server took the same id", async () => {
  write(".aa11bb22.deleted-0a1b2c/world.dat", "deleted");
  write("aa11bb22/world.dat", "new");
  const done = await recoverInterruptedRestores(dir);
  expect(fs.readdirSync(dir)).toEqual(["aa11bb22"]);
  expect(fs.readFileSync(path.join(dir, "aa11bb22/world.dat"), "utf8")).toBe("new");
  expect(done).toEqual(["server aa11bb22: removed the rest of its deleted files"]);
});

it("leaves everything else alone", async () => {
  write("aa11bb22/world.dat", "x");
  write("aa11bb22.json", "{}");
  write(".hidden-file", "y");
  expect(await recoverInterruptedRestores(dir)).toEqual([]);
  expect(fs.readdirSync(dir).sort()).toEqual([".hidden-file", "aa11bb22", "aa11bb22.json"]);
});

it("removes what a restore of some files left inside a server's folder, and nothing of the server's own", async () => {
  write("aa11bb22/world.dat", "x");
  write("aa11bb22/.outpost-restore-0a1b2c/world.dat", "half");
  write("aa11bb22/.outpost-restore-0a1b2c-old/0", "aside");
  write("aa11bb22/.outpost-restore-notes", "the server's own file");
  const done = await recoverInterruptedRestores(dir);
  expect(fs.readdirSync(path.join(dir, "aa11bb22")).sort()).toEqual([".outpost-restore-notes", "world.dat"]);
  expect(done).toEqual([
    "server aa11bb22: removed what an interrupted restore of some of its files left behind",
  ]);
});

it("puts back a place a restore of some files had moved aside when it stopped before swapping in", async () => {
  write("aa11bb22/world/other.dat", "untouched");
  write("aa11bb22/.outpost-restore-0a1b2c/world/level.dat", "restored, not yet swapped in");
  write(
    "aa11bb22/.outpost-restore-0a1b2c-old/places.json",
    JSON.stringify(["server.properties", "world/level.dat"]),
  );
  write("aa11bb22/.outpost-restore-0a1b2c-old/1", "level before the restore");
  write("aa11bb22/server.properties", "swapped in already");
  write("aa11bb22/.outpost-restore-0a1b2c-old/0", "properties before the restore");
  await recoverInterruptedRestores(dir);
  const read = (rel: string) => fs.readFileSync(path.join(dir, "aa11bb22", rel), "utf8");
  expect(read("world/level.dat")).toBe("level before the restore");
  expect(read("server.properties")).toBe("swapped in already");
  expect(fs.readdirSync(path.join(dir, "aa11bb22")).sort()).toEqual(["server.properties", "world"]);
});
