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
    // web-push (and its crypto helpers) load with the first push, not with the idle panel.
    const { default: webpush } = await import("web-push");
    const made = webpush.generateVAPIDKeys();
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
