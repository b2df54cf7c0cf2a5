import webpush from "web-push";
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
  private pair?: Promise<VapidPair>;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  get(): Promise<VapidPair> {
    this.pair ??= this.load().catch((error) => {
      this.pair = undefined;
      throw error;
    });
    return this.pair;
  }

  private async load(): Promise<VapidPair> {
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
    return { publicKey: row.public_key, privateKey: this.box.open(row.private_key) };
  }
}
