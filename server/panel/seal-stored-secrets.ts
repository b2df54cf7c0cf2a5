import type { Db } from "../db/database.ts";
import { SecretBox } from "../secrets/secret-box.ts";
import { secretSettingKeys } from "./settings.ts";

/**
 * Seals, at start, every secret still stored in plain text by a version from
 * before secrets were sealed: node secrets, TOTP secrets and the secret
 * settings. Sealed values are left as they are, so this runs on every start.
 * Answers how many values it sealed.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let sealed = 0;
    for (const node of await trx.selectFrom("nodes").select(["id", "secret"]).execute()) {
      if (SecretBox.isSealed(node.secret)) continue;
      await trx
        .updateTable("nodes")
        .set({ secret: box.seal(node.secret) })
        .where("id", "=", node.id)
        .execute();
      sealed++;
    }
    const users = await trx
      .selectFrom("users")
      .select(["id", "otp_secret"])
      .where("otp_secret", "is not", null)
      .execute();
    for (const user of users) {
      if (user.otp_secret === null || SecretBox.isSealed(user.otp_secret)) continue;
      await trx
        .updateTable("users")
        .set({ otp_secret: box.seal(user.otp_secret) })
        .where("id", "=", user.id)
        .execute();
      sealed++;
    }
    if (secretSettingKeys.length > 0) {
      const settings = await trx
        .selectFrom("settings")
        .select(["key", "value"])
        .where("key", "in", secretSettingKeys)
        .execute();
      for (const row of settings) {
        const value = String(JSON.parse(row.value));
        if (SecretBox.isSealed(value)) continue;
        await trx
          .updateTable("settings")
          .set({ value: JSON.stringify(box.seal(value)) })
          .where("key", "=", row.key)
          .execute();
        sealed++;
      }
    }
    return sealed;
  });
}
