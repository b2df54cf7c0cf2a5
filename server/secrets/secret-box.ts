import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensurePrivateDir, ensurePrivateFile, privateFileMode } from "./private-files.ts";

/**
 * The one module that holds secrets at rest: values the panel must use again
 * in plain form (node secrets to sign its calls, the SMTP password or mail
 * API key, TOTP secrets) are stored sealed with AES-256-GCM under a key that
 * is not in the database, so a copy of the database (a backup, a dump, a
 * leaked file) does not give them away. What only needs comparing (passwords,
 * session and invite tokens, OAuth client secrets) is hashed elsewhere instead.
 *
 * A sealed value is `sealed:v1:` + base64url(iv | tag | ciphertext); the
 * version lets a later format or key live beside this one.
 */
const prefix = "sealed:v1:";
const ivBytes = 12;
const tagBytes = 16;

export const secretKeyFileName = "secret.key";

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /**
   * The panel's key: OUTPOST_SECRET_KEY (32 bytes as 64 hex digits or base64)
   * when set — several panels sharing one PostgreSQL database must share it —
   * otherwise `secret.key` in the data folder, made 0600 on the first start.
   */
  static forPanel(dataDir: string, envKey: string | undefined): SecretBox {
    if (envKey) return new SecretBox(parseKey(envKey, "OUTPOST_SECRET_KEY"));
    return new SecretBox(loadOrCreateKeyFile(path.join(dataDir, secretKeyFileName)));
  }

  static isSealed(value: string): boolean {
    return value.startsWith(prefix);
  }

  seal(plain: string): string {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  /** The plain value; throws when the value is not sealed or was sealed under another key. */
  open(sealed: string): string {
    if (!SecretBox.isSealed(sealed)) throw new Error("a stored secret is not sealed");
    const raw = Buffer.from(sealed.slice(prefix.length), "base64url");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, ivBytes));
      decipher.setAuthTag(raw.subarray(ivBytes, ivBytes + tagBytes));
      return Buffer.concat([decipher.update(raw.subarray(ivBytes + tagBytes)), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      throw new Error(
        `a stored secret does not open with this panel's key (was ${secretKeyFileName} or OUTPOST_SECRET_KEY changed?)`,
      );
    }
  }

  /** Seals a value that is still in plain text (rows from before sealing existed); sealed ones stay. */
  sealIfPlain(value: string): string {
    return SecretBox.isSealed(value) ? value : this.seal(value);
  }
}

function parseKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes (64 hex digits or base64)`);
  return key;
}

function loadOrCreateKeyFile(file: string): Buffer {
  ensurePrivateDir(path.dirname(file));
  if (!fs.existsSync(file)) {
    // Written aside, then linked into place: a second process starting on the
    // same folder never reads a half-written key, and the first key made wins.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${randomBytes(32).toString("hex")}\n`, { mode: privateFileMode });
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  ensurePrivateFile(file);
  return parseKey(fs.readFileSync(file, "utf8"), file);
}
