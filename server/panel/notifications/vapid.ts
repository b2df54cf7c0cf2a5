import { createECDH } from "node:crypto";
import type { Db } from "../../db/database.ts";
import type { SecretBox } from "../../secrets/secret-box.ts";

export interface VapidPair {
  publicKey: string;
  privateKey: string;
}

/**
 * The panel's VAPID key pair (RFC 8292), made on first use and kept in the
 * database with the private key sealed (secret-box.ts), so every panel
 * sharing the database signs with the same pair and browsers' subscriptions
 * keep working after a restart. Two panels starting at once: the first
 * insert wins and both read it back.
 */
export class VapidKeys {
  private row?: Promise<{ publicKey: string; sealedPrivateKey: string }>;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  /** The public key (base64url), for /api/config: read without opening the sealed private key. */
  async publicKey(): Promise<string> {
    return (await this.stored()).publicKey;
  }

  /** The pair to sign with; throws when the private key was sealed under another panel key. */
  async get(): Promise<VapidPair> {
    const { publicKey, sealedPrivateKey } = await this.stored();
    return { publicKey, privateKey: this.box.open(sealedPrivateKey) };
  }

  private stored() {
    this.row ??= this.load().catch((error) => {
      this.row = undefined;
      throw error;
    });
    return this.row;
  }

  private async load() {
    const made = generateVapidPair();
    await this.db
      .insertInto("notification_keys")
      .values({ name: "vapid", public_key: made.publicKey, private_key: this.box.seal(made.privateKey) })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
    const row = await this.db
      .selectFrom("notification_keys")
      .selectAll()
      .where("name", "=", "vapid")
      .executeTakeFirstOrThrow();
    return { publicKey: row.public_key, sealedPrivateKey: row.private_key };
  }
}

/**
 * A P-256 pair as web-push's generateVAPIDKeys makes it (the uncompressed public point and the
 * private scalar, base64url, padded to 65 and 32 bytes), with node:crypto alone: the pair is made
 * at the first start, and web-push (with its crypto helpers) then loads with the first push, not
 * with the idle panel.
 */
function generateVapidPair(): VapidPair {
  const curve = createECDH("prime256v1");
  curve.generateKeys();
  const padded = (key: Buffer, length: number) =>
    key.length < length ? Buffer.concat([Buffer.alloc(length - key.length), key]) : key;
  return {
    publicKey: padded(curve.getPublicKey(), 65).toString("base64url"),
    privateKey: padded(curve.getPrivateKey(), 32).toString("base64url"),
  };
}
