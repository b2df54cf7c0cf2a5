import type { Db } from "../../db/database.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { ApiError, errors } from "../../errors.ts";
import { parseSshPublicKey } from "./ssh-public-key.ts";

export interface SshKeyView {
  id: number;
  name: string;
  algorithm: string;
  bits: number;
  fingerprint: string;
  publicKey: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** Keys one account may hold, so that no one fills the database. */
export const sshKeysPerUserMax = 50;

/** The public keys each user signs in to SFTP with (issue 39); the private halves never come here. */
export class SshKeys {
  constructor(private readonly db: Db) {}

  async list(userId: number): Promise<SshKeyView[]> {
    const rows = await this.db
      .selectFrom("ssh_keys")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      algorithm: row.algorithm,
      bits: row.bits,
      fingerprint: row.fingerprint,
      publicKey: row.public_key,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    }));
  }

  /** Adds a key; its name defaults to the line's comment (`user@host`), as ssh-keygen wrote it. */
  async add(userId: number, input: { name?: string; publicKey: string }): Promise<SshKeyView> {
    const key = parseSshPublicKey(input.publicKey);
    const comment = input.publicKey.trim().split(/\s+/).slice(2).join(" ");
    const name = (input.name ?? "").trim() || comment.slice(0, 100) || key.fingerprint.slice(0, 100);
    if (name.length > 100) throw errors.fieldLength("name", 1, 100);
    const held = await this.db
      .selectFrom("ssh_keys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= sshKeysPerUserMax)
      throw new ApiError(409, "ErrSshKeyLimit", "an account holds at most ${max} SSH keys", {
        max: sshKeysPerUserMax,
      });
    try {
      await this.db
        .insertInto("ssh_keys")
        .values({
          user_id: userId,
          name,
          algorithm: key.algorithm,
          bits: key.bits,
          fingerprint: key.fingerprint,
          public_key: key.line,
          created_at: Date.now(),
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError(409, "ErrSshKeyExists", "this key (${fingerprint}) is already on your account", {
          fingerprint: key.fingerprint,
        });
      throw error;
    }
    const added = (await this.list(userId)).find((k) => k.fingerprint === key.fingerprint);
    if (!added) throw errors.notFound();
    return added;
  }

  async remove(userId: number, id: number): Promise<void> {
    const result = await this.db
      .deleteFrom("ssh_keys")
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0)
      throw new ApiError(404, "ErrSshKeyNotFound", "no such SSH key on your account");
  }

  /**
   * Whether the user holds the key of this OpenSSH line (its signature already checked by the
   * node); marks it used when `used`.
   */
  async holds(userId: number, publicKey: string, used: boolean): Promise<boolean> {
    let fingerprint: string;
    try {
      fingerprint = parseSshPublicKey(publicKey).fingerprint;
    } catch {
      return false;
    }
    const row = await this.db
      .selectFrom("ssh_keys")
      .select("id")
      .where("user_id", "=", userId)
      .where("fingerprint", "=", fingerprint)
      .executeTakeFirst();
    if (row && used)
      await this.db
        .updateTable("ssh_keys")
        .set({ last_used_at: Date.now() })
        .where("id", "=", row.id)
        .execute();
    return row !== undefined;
  }
}
