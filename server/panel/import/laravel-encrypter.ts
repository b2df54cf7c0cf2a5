import { createDecipheriv, createHmac, timingSafeEqual } from "node:crypto";

/**
 * Laravel's encrypter (Illuminate\Encryption\Encrypter, AES-256-CBC), as Pterodactyl and Pelican
 * use it for TOTP secrets and database passwords: the payload is base64 of the JSON
 * `{iv, value, mac, tag}`, `mac` the hex HMAC-SHA256 of `iv . value` under the key, `value` the
 * base64 ciphertext. `encrypt()` PHP-serializes the value first (`s:N:"…";`), `encryptString()`
 * does not: both are read back. Only decryption: nothing is ever written to the source.
 */
export class LaravelEncrypter {
  private readonly key: Buffer;

  /** `appKey`: the panel's APP_KEY, `base64:…` (or the raw 32 characters). */
  constructor(appKey: string) {
    const key = appKey.startsWith("base64:") ? Buffer.from(appKey.slice(7), "base64") : Buffer.from(appKey);
    if (key.length !== 32)
      throw new Error("the APP_KEY is not an AES-256 key (32 bytes, base64:… in the panel's .env)");
    this.key = key;
  }

  decrypt(payload: string): string {
    let parsed: { iv?: unknown; value?: unknown; mac?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
    } catch {
      throw new Error("not a Laravel encrypted payload");
    }
    const { iv, value, mac } = parsed;
    if (typeof iv !== "string" || typeof value !== "string" || typeof mac !== "string")
      throw new Error("not a Laravel encrypted payload");
    const expected = createHmac("sha256", this.key)
      .update(iv + value)
      .digest();
    const given = Buffer.from(mac, "hex");
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new Error("the MAC is invalid: this APP_KEY is not the one that encrypted the value");
    const decipher = createDecipheriv("aes-256-cbc", this.key, Buffer.from(iv, "base64"));
    const plain = Buffer.concat([decipher.update(Buffer.from(value, "base64")), decipher.final()]).toString(
      "utf8",
    );
    return unserializedString(plain) ?? plain;
  }
}

/** A PHP-serialized string (`s:<bytes>:"…";`) as its text; anything else is not one. */
function unserializedString(text: string): string | undefined {
  const match = /^s:(\d+):"([\s\S]*)";$/.exec(text);
  if (!match) return undefined;
  const inner = match[2] as string;
  return Buffer.byteLength(inner) === Number(match[1]) ? inner : undefined;
}
