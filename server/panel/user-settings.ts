import type { Db } from "../db/database.ts";
import { ApiError } from "../errors.ts";

/** Keys one user may keep: the web app uses a handful; without a bound anyone signed in could fill the database. */
export const userSettingsMax = 100;

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
    const keys = await this.db
      .selectFrom("user_settings")
      .select("key")
      .where("user_id", "=", userId)
      .limit(userSettingsMax + 1)
      .execute();
    if (keys.length >= userSettingsMax && !keys.some((k) => k.key === key)) {
      throw new ApiError(400, "ErrTooManySettings", "at most ${limit} settings per user", {
        limit: userSettingsMax,
      });
    }
    await this.db
      .insertInto("user_settings")
      .values({ user_id: userId, key, value })
      .onConflict((oc) => oc.columns(["user_id", "key"]).doUpdateSet({ value }))
      .execute();
  }
}
