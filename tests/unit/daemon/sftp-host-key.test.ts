import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ssh2 from "ssh2";
import { afterEach, beforeEach, expect, it } from "vitest";
import { hostKeyFileName, loadOrCreateHostKey } from "../../../server/daemon/sftp/host-key.ts";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-hostkey-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

// ssh2's generator makes an unreadable key about once in 250; a node must never keep one.
it("makes a readable key every time, kept with owner-only access", () => {
  for (let i = 0; i < 1500; i++) {
    const folder = path.join(dir, String(i));
    const key = loadOrCreateHostKey(folder);
    expect(ssh2.utils.parseKey(key)).not.toBeInstanceOf(Error);
    if (i === 0) expect(fs.statSync(path.join(folder, hostKeyFileName)).mode & 0o777).toBe(0o600);
  }
  // 1500 keys take about a second alone, many more on a busy machine.
}, 60_000);

it("keeps the key it made", () => {
  const first = loadOrCreateHostKey(dir);
  expect(loadOrCreateHostKey(dir).equals(first)).toBe(true);
});
