import { createHash, createPublicKey, type JsonWebKey } from "node:crypto";
import { ApiError } from "../../errors.ts";

/** A public key as SFTP sign-in keeps it: its OpenSSH line without the comment, and its fingerprint. */
export interface SshPublicKey {
  algorithm: string;
  bits: number;
  /** `SHA256:` and the unpadded base64 of the key's SHA-256, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** `<type> <base64>`. */
  line: string;
}

const curves: Record<string, { crv: string; bits: number; size: number }> = {
  "ecdsa-sha2-nistp256": { crv: "P-256", bits: 256, size: 32 },
  "ecdsa-sha2-nistp384": { crv: "P-384", bits: 384, size: 48 },
  "ecdsa-sha2-nistp521": { crv: "P-521", bits: 521, size: 66 },
};

/** The smallest RSA modulus accepted (NIST SP 800-131A; OpenSSH refuses less than 1024). */
export const minRsaBits = 2048;

const invalid = (why: string) =>
  new ApiError(400, "ErrSshKeyInvalid", "not an OpenSSH public key: ${reason}", { reason: why });

/** The SHA-256 fingerprint of a key's wire form (the base64 of its line). */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/**
 * Reads one OpenSSH public key line (`ssh-ed25519 AAAA… comment`): Ed25519, ECDSA on the NIST
 * curves and RSA of at least 2048 bits. DSA (OpenSSH dropped it), security-key types (their
 * signatures carry flags SFTP sign-in here does not check) and certificates are refused by name.
 * The key's numbers are handed to Node's crypto, so a point off its curve is refused too.
 */
export function parseSshPublicKey(text: string): SshPublicKey {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 2) throw invalid("expected the key's type and its base64, as in id_ed25519.pub");
  const [type, encoded] = fields;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw invalid("the key is not base64");
  const blob = Buffer.from(encoded, "base64");
  const reader = new WireReader(blob);
  const inner = reader.string().toString("latin1");
  if (type !== "ssh-ed25519" && type !== "ssh-rsa" && !curves[type])
    throw new ApiError(
      400,
      "ErrSshKeyType",
      "${type} keys are not accepted: use Ed25519, ECDSA or RSA (2048 bits or more)",
      { type: type.slice(0, 64) },
    );
  if (inner !== type) throw invalid(`the key says it is ${inner.slice(0, 40)}, not ${type.slice(0, 40)}`);
  let jwk: JsonWebKey;
  let bits: number;
  if (type === "ssh-ed25519") {
    const key = reader.string();
    if (key.length !== 32) throw invalid("an Ed25519 key is 32 bytes");
    jwk = { kty: "OKP", crv: "Ed25519", x: key.toString("base64url") };
    bits = 256;
  } else if (curves[type]) {
    const curve = curves[type];
    const name = reader.string().toString("latin1");
    if (`ecdsa-sha2-${name}` !== type) throw invalid("the curve does not match the key's type");
    const point = reader.string();
    if (point.length !== 1 + 2 * curve.size || point[0] !== 4) throw invalid("not an uncompressed point");
    jwk = {
      kty: "EC",
      crv: curve.crv,
      x: point.subarray(1, 1 + curve.size).toString("base64url"),
      y: point.subarray(1 + curve.size).toString("base64url"),
    };
    bits = curve.bits;
  } else {
    const e = unsigned(reader.string());
    const n = unsigned(reader.string());
    bits = n.length === 0 ? 0 : (n.length - 1) * 8 + n[0].toString(2).length;
    if (bits < minRsaBits)
      throw new ApiError(
        400,
        "ErrSshKeyTooShort",
        "an RSA key needs at least ${min} bits, this one has ${bits}",
        {
          min: minRsaBits,
          bits,
        },
      );
    jwk = { kty: "RSA", n: n.toString("base64url"), e: e.toString("base64url") };
  }
  if (!reader.done) throw invalid("bytes after the key");
  try {
    createPublicKey({ key: jwk, format: "jwk" });
  } catch {
    throw invalid("the key's numbers are not a valid key");
  }
  return {
    algorithm: type,
    bits,
    fingerprint: sshFingerprint(blob),
    line: `${type} ${blob.toString("base64")}`,
  };
}

/** An mpint without its sign byte. */
const unsigned = (mpint: Buffer) => {
  let start = 0;
  while (start < mpint.length && mpint[start] === 0) start++;
  return mpint.subarray(start);
};

/** SSH's wire strings (RFC 4251 §5): a 32-bit length, then that many bytes. */
class WireReader {
  private at = 0;
  constructor(private readonly buffer: Buffer) {}
  string(): Buffer {
    if (this.at + 4 > this.buffer.length) throw invalid("the key ends too soon");
    const length = this.buffer.readUInt32BE(this.at);
    this.at += 4;
    if (length > this.buffer.length - this.at) throw invalid("the key ends too soon");
    const out = this.buffer.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }
  get done(): boolean {
    return this.at === this.buffer.length;
  }
}
