import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { extractArchive } from "../../../server/daemon/archive/index.ts";
import { Sandbox } from "../../../server/daemon/sandbox/index.ts";
import { tarGz, zipOf } from "./install/support.ts";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-times-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

// The fixtures stamp every entry with the epoch: far from "now", so a file that got the time of
// its extraction instead would show.
it("keeps a tar entry's modification time on the extracted file", async () => {
  fs.writeFileSync(path.join(root, "a.tar.gz"), tarGz([{ path: "world/level.dat", body: "level" }]));
  await extractArchive(new Sandbox(root), "a.tar.gz", "out");
  expect(fs.statSync(path.join(root, "out/world/level.dat")).mtime.getTime()).toBe(0);
});

it("keeps a zip entry's modification time on the extracted file", async () => {
  fs.writeFileSync(path.join(root, "a.zip"), await zipOf([{ name: "world/level.dat", body: "level" }]));
  await extractArchive(new Sandbox(root), "a.zip", "out");
  // The epoch itself from the extended timestamp field, or 1980 from the DOS date alone.
  expect(fs.statSync(path.join(root, "out/world/level.dat")).mtime.getFullYear()).toBeLessThanOrEqual(1980);
});
