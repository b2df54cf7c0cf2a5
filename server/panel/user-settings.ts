import type { Db } from "../db/database.ts";

/** Per-user key/value preferences (theme, themeSettings, …); values are opaque strings. */
export class UserSettings {
  constructor(private readonly db: Db) {}

  async list(userId: number): Promise<{ key: string; value: string }[]> {
    return this.db
      .selectFrom("user_settings")
      .select(["key", "value"])
      .where("user_id", "=", userId)
      .orderBy("key")
      .execute();
  }

  async set(userId: number, key: string, value: string): Promise<void> {
    await this.db
      .insertInto("user_settings")
      .values({ user_id: userId, key, value })
      .onConflict((oc) => oc.columns(["user_id", "key"]).doUpdateSet({ value }))
      .execute();
  }
}
