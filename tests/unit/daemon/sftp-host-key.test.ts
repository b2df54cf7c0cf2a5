import { createHash, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ssh2 from "ssh2";
import { afterEach, beforeEach, expect, it } from "vitest";
import { hostKeyFileName, loadOrCreateHostKey } from "../../../server/daemon/sftp/host-key.ts";
import { OPEN_MODE, STATUS_CODE } from "../../../server/daemon/sftp/sftp-codes.ts";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-hostkey-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

// ssh2's generator made an unreadable key about once in 250 (the reason the key is made with node:crypto); a node must never keep one.
it("makes a readable key every time, kept with owner-only access", async () => {
  for (let i = 0; i < 1500; i++) {
    const folder = path.join(dir, String(i));
    const { key } = await loadOrCreateHostKey(folder);
    expect(ssh2.utils.parseKey(key)).not.toBeInstanceOf(Error);
    if (i === 0) expect(fs.statSync(path.join(folder, hostKeyFileName)).mode & 0o777).toBe(0o600);
  }
  // 1500 keys take about a second alone, many more on a busy machine.
}, 60_000);

it("keeps the key it made", async () => {
  const first = await loadOrCreateHostKey(dir);
  const again = await loadOrCreateHostKey(dir);
  expect(again.key.equals(first.key)).toBe(true);
  expect(again.fingerprint).toBe(first.fingerprint);
});

// The key is made and read without ssh2 (so that a node's start does not load it): ssh2 must agree.
it("names the fingerprint ssh2 gives the key", async () => {
  const { key, fingerprint } = await loadOrCreateHostKey(dir);
  const parsed = ssh2.utils.parseKey(key) as ssh2.ParsedKey;
  expect(parsed.type).toBe("ssh-ed25519");
  const digest = createHash("sha256").update(parsed.getPublicSSH()).digest("base64").replace(/=+$/, "");
  expect(fingerprint).toBe(`SHA256:${digest}`);
});

it("reads a key in another format through ssh2, and refuses one it cannot read", async () => {
  const pem = generateKeyPairSync("ec", { namedCurve: "prime256v1" })
    .privateKey.export({ format: "pem", type: "sec1" })
    .toString();
  fs.writeFileSync(path.join(dir, hostKeyFileName), pem, { mode: 0o600 });
  const { fingerprint } = await loadOrCreateHostKey(dir);
  const parsed = ssh2.utils.parseKey(pem) as ssh2.ParsedKey;
  const digest = createHash("sha256").update(parsed.getPublicSSH()).digest("base64").replace(/=+$/, "");
  expect(fingerprint).toBe(`SHA256:${digest}`);

  fs.writeFileSync(path.join(dir, hostKeyFileName), "not a key\n", { mode: 0o600 });
  await expect(loadOrCreateHostKey(dir)).rejects.toThrow(/unreadable/);
});

it("answers with ssh2's SFTP open flags and status codes", () => {
  expect(OPEN_MODE).toEqual(ssh2.utils.sftp.OPEN_MODE);
  for (const [name, code] of Object.entries(STATUS_CODE))
    expect(code).toBe(ssh2.utils.sftp.STATUS_CODE[name as keyof typeof STATUS_CODE]);
});
