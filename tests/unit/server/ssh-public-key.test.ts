import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSshPublicKey } from "../../../server/panel/sign-in-methods/ssh-public-key.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outpost-sshkey-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A key pair made by OpenSSH's ssh-keygen: its .pub line and the fingerprint ssh-keygen prints. */
function keygen(name: string, args: string[]): { line: string; fingerprint: string } {
  const file = path.join(dir, name);
  execFileSync("ssh-keygen", ["-q", "-N", "", "-C", `${name}@test`, "-f", file, ...args]);
  const printed = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${file}.pub`]).toString();
  return { line: fs.readFileSync(`${file}.pub`, "utf8"), fingerprint: /SHA256:\S+/.exec(printed)?.[0] ?? "" };
}

describe("OpenSSH public keys", () => {
  it.each([
    ["ed25519", ["-t", "ed25519"], "ssh-ed25519", 256],
    ["ecdsa256", ["-t", "ecdsa", "-b", "256"], "ecdsa-sha2-nistp256", 256],
    ["ecdsa384", ["-t", "ecdsa", "-b", "384"], "ecdsa-sha2-nistp384", 384],
    ["ecdsa521", ["-t", "ecdsa", "-b", "521"], "ecdsa-sha2-nistp521", 521],
    ["rsa2048", ["-t", "rsa", "-b", "2048"], "ssh-rsa", 2048],
    ["rsa3072", ["-t", "rsa", "-b", "3072"], "ssh-rsa", 3072],
  ])("reads %s and fingerprints it as ssh-keygen does", (name, args, algorithm, bits) => {
    const made = keygen(name, args);
    const key = parseSshPublicKey(made.line);
    expect(key).toMatchObject({ algorithm, bits, fingerprint: made.fingerprint });
    // The comment is not kept.
    expect(key.line).toBe(made.line.trim().split(" ").slice(0, 2).join(" "));
  });

  it("refuses RSA under 2048 bits, DSA, and what is not a key, each saying why", () => {
    const short = keygen("rsa1024", ["-t", "rsa", "-b", "1024"]);
    expect(() => parseSshPublicKey(short.line)).toThrow(
      expect.objectContaining({ code: "ErrSshKeyTooShort" }),
    );
    const ed = keygen("ed-two", ["-t", "ed25519"]).line.split(" ");
    expect(() => parseSshPublicKey(`ssh-dss ${ed[1]}`)).toThrow(
      expect.objectContaining({ code: "ErrSshKeyType" }),
    );
    expect(() => parseSshPublicKey(`ssh-rsa ${ed[1]}`)).toThrow(
      expect.objectContaining({ code: "ErrSshKeyInvalid" }),
    );
    expect(() => parseSshPublicKey("hello")).toThrow(expect.objectContaining({ code: "ErrSshKeyInvalid" }));
    expect(() => parseSshPublicKey(`ssh-ed25519 ${ed[1].slice(0, 40)}`)).toThrow(
      expect.objectContaining({ code: "ErrSshKeyInvalid" }),
    );
    // A P-256 "point" that is not on the curve.
    const point = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]);
    const wire = (parts: Buffer[]) =>
      Buffer.concat(parts.flatMap((p) => [Buffer.from([0, 0, p.length >> 8, p.length & 255]), p]));
    const bad = wire([Buffer.from("ecdsa-sha2-nistp256"), Buffer.from("nistp256"), point]).toString("base64");
    expect(() => parseSshPublicKey(`ecdsa-sha2-nistp256 ${bad}`)).toThrow(
      expect.objectContaining({ code: "ErrSshKeyInvalid" }),
    );
  });
});
