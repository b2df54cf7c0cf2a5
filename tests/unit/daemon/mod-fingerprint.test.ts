import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Fingerprint, keptLength } from "../../../server/daemon/mods/fingerprint.ts";
import { curseforgeFingerprint } from "../../support/curseforge-standin.ts";

/** The node's fingerprint, fed `bytes` in pieces of `size` bytes (as a file's read stream does). */
function streamed(bytes: Buffer, size: number): number {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  const kept = pieces.reduce((sum, piece) => sum + keptLength(piece), 0);
  const fingerprint = new Fingerprint(kept);
  for (const piece of pieces) fingerprint.update(piece);
  return fingerprint.digest();
}

describe("CurseForge's fingerprint on the node", () => {
  // The stand-in's whole-buffer BigInt MurmurHash2 is the reference: written apart from the node's.
  it("matches the reference whatever the pieces a file is read in, whitespace left out", () => {
    for (const length of [0, 1, 2, 3, 4, 5, 7, 8, 63, 1000]) {
      const bytes = randomBytes(length);
      // Whitespace sprinkled in, which the fingerprint skips.
      for (let i = 0; i < length; i += 5) bytes[i] = [9, 10, 13, 32][i % 4];
      const expected = curseforgeFingerprint(bytes);
      for (const size of [1, 2, 3, 5, 64, 4096]) expect(streamed(bytes, size)).toBe(expected);
    }
  });

  it("does not change when only whitespace is added, and does when a byte does", () => {
    const jar = Buffer.from("PK\u0003\u0004 a jar's bytes");
    const spaced = Buffer.from("PK\u0003\u0004  a\tjar's\r\nbytes ");
    expect(streamed(spaced, 3)).toBe(streamed(jar, 7));
    expect(streamed(Buffer.from("PK\u0003\u0004 a jar's bytez"), 7)).not.toBe(streamed(jar, 7));
  });
});
