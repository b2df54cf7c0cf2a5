import { createHash, createPrivateKey, createPublicKey, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensurePrivateFile } from "../../secrets/private-files.ts";

export const hostKeyFileName = "sftp_host_ed25519_key";

/** A host key as the SSH server takes it, and its fingerprint. */
export interface HostKey {
  key: Buffer;
  /** `SHA256:…` as `ssh-keygen -l` prints it. */
  fingerprint: string;
}

/**
 * The node's SFTP host key: Ed25519, made on the first start and kept in the
 * node's data folder (OpenSSH format, readable by the daemon's user only), so
 * clients that remember it are not warned after a restart.
 *
 * Made with node:crypto and read without ssh2, so that starting a node does
 * not load ssh2 (about 15 MiB with its WebAssembly memory): it loads with the
 * first SFTP connection. A key in another format (put there by hand) is read
 * by ssh2 at once.
 */
export async function loadOrCreateHostKey(dataDir: string): Promise<HostKey> {
  const file = path.join(dataDir, hostKeyFileName);
  try {
    ensurePrivateFile(file);
    return await checked(fs.readFileSync(file), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": two processes starting on one folder keep the first key, not a mix.
    fs.writeFileSync(file, newHostKey(), { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return checked(fs.readFileSync(file), file);
}

async function checked(key: Buffer, file: string): Promise<HostKey> {
  const blob = ed25519PublicBlob(key);
  if (blob) return { key, fingerprint: fingerprintOf(blob) };
  const { default: ssh2 } = await import("ssh2");
  const parsed = ssh2.utils.parseKey(key);
  if (parsed instanceof Error) throw new Error(`SFTP host key ${file} is unreadable: ${parsed.message}`);
  return { key, fingerprint: fingerprintOf(parsed.getPublicSSH()) };
}

function fingerprintOf(publicBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(publicBlob).digest("base64").replace(/=+$/, "")}`;
}

const magic = Buffer.from("openssh-key-v1\0");
const keyType = "ssh-ed25519";

/** SSH's `string`: a 32-bit length, then the bytes. */
function sshString(value: Buffer | string): Buffer {
  const bytes = Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** PKCS #8 of an Ed25519 private key up to its 32-byte seed (RFC 8410). */
const pkcs8Ed25519Prefix = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * An Ed25519 key pair made from 32 random bytes. Not with generateKeyPairSync
 * and a JWK export: on Node 20 that pair can deadlock the process for good (the
 * export holds the key's lock while it allocates; a garbage collection then
 * finalizes the generation job, which takes the same lock: it hung a test run).
 */
function newEd25519(): { seed: Buffer; pub: Buffer } {
  const seed = randomBytes(32);
  const privateKey = createPrivateKey({
    key: Buffer.concat([pkcs8Ed25519Prefix, seed]),
    format: "der",
    type: "pkcs8",
  });
  // The SubjectPublicKeyInfo form ends with the 32-byte public key.
  const pub = createPublicKey(privateKey).export({ type: "spki", format: "der" }).subarray(-32);
  return { seed, pub };
}

/**
 * A fresh Ed25519 key in OpenSSH's private key format (unencrypted), as
 * `ssh-keygen -t ed25519 -N ""` writes it. ssh2's own generator wrote about
 * one key in 250 with a 31-byte public key that its parser then refused.
 */
function newHostKey(): string {
  const { seed, pub } = newEd25519();
  const publicBlob = Buffer.concat([sshString(keyType), sshString(pub)]);
  const check = randomBytes(4);
  let secret = Buffer.concat([
    check,
    check,
    sshString(keyType),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString("outpost"),
  ]);
  const padding = (8 - (secret.length % 8)) % 8;
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: padding }, (_, i) => i + 1))]);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(1);
  const body = Buffer.concat([
    magic,
    sshString("none"),
    sshString("none"),
    sshString(""),
    count,
    sshString(publicBlob),
    sshString(secret),
  ]).toString("base64");
  const lines = body.match(/.{1,70}/g) ?? [];
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join("\n")}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

/** Reads SSH's `string`s (a 32-bit length, then the bytes) one after another; undefined past the end. */
class SshReader {
  constructor(
    private readonly data: Buffer,
    public at = 0,
  ) {}

  string(): Buffer | undefined {
    if (this.at + 4 > this.data.length) return undefined;
    const length = this.data.readUInt32BE(this.at);
    if (this.at + 4 + length > this.data.length) return undefined;
    const value = this.data.subarray(this.at + 4, this.at + 4 + length);
    this.at += 4 + length;
    return value;
  }

  uint32(): number | undefined {
    if (this.at + 4 > this.data.length) return undefined;
    this.at += 4;
    return this.data.readUInt32BE(this.at - 4);
  }
}

/**
 * The public key blob of an unencrypted, single Ed25519 key in OpenSSH's
 * format whose public key is whole (32 bytes) and the same in both halves;
 * undefined for anything else.
 */
function ed25519PublicBlob(file: Buffer): Buffer | undefined {
  const match = file
    .toString("latin1")
    .trim()
    .match(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\r?\n([A-Za-z0-9+/=\r\n]+)-----END OPENSSH PRIVATE KEY-----$/,
    );
  if (!match) return undefined;
  const data = Buffer.from(match[1].replace(/\s+/g, ""), "base64");
  if (!data.subarray(0, magic.length).equals(magic)) return undefined;
  const read = new SshReader(data, magic.length);
  if (read.string()?.toString() !== "none" || read.string()?.toString() !== "none") return undefined;
  if (read.string()?.length !== 0 || read.uint32() !== 1) return undefined;
  const publicBlob = read.string();
  const secret = read.string();
  if (!publicBlob || !secret) return undefined;
  const inPublic = new SshReader(publicBlob);
  if (inPublic.string()?.toString() !== keyType) return undefined;
  const pub = inPublic.string();
  if (pub?.length !== 32) return undefined;
  // The private half: two equal check words, the same type and public key, then seed‖public.
  const inSecret = new SshReader(secret);
  const check = inSecret.uint32();
  if (check === undefined || inSecret.uint32() !== check) return undefined;
  if (inSecret.string()?.toString() !== keyType || !inSecret.string()?.equals(pub)) return undefined;
  const pair = inSecret.string();
  if (pair?.length !== 64 || !pair.subarray(32).equals(pub)) return undefined;
  return publicBlob;
}
