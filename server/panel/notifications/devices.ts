import { randomBytes } from "node:crypto";
import type { Db } from "../../db/database.ts";
import { tokenHash } from "../tokens.ts";
import type { AlertEvent } from "./notifier.ts";

/** Devices kept per account; the one seen longest ago goes first. */
export const devicesPerUser = 50;
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/**
 * The devices each account signed in from: a long-lived random cookie per
 * browser, kept as its SHA-256 per user. A sign-in from a device the account
 * has not used before (when it has used others) is told to its owner as
 * `account.newDevice`, with the browser and address it came from.
 */
export class SignInDevices {
  constructor(
    private readonly db: Db,
    private readonly notify: (event: AlertEvent) => void,
  ) {}

  /** Records the sign-in; answers the device token the browser is to keep (its own, or a new one). */
  async signedIn(
    userId: number,
    given: string | undefined,
    address: string,
    userAgent: string,
  ): Promise<string> {
    const token = given && tokenPattern.test(given) ? given : randomBytes(32).toString("base64url");
    const hash = tokenHash(token);
    const known = await this.db
      .selectFrom("user_devices")
      .select(["device_hash", "seen_at"])
      .where("user_id", "=", userId)
      .orderBy("seen_at", "desc")
      .execute();
    const now = Date.now();
    await this.db
      .insertInto("user_devices")
      .values({ user_id: userId, device_hash: hash, seen_at: now })
      .onConflict((oc) => oc.columns(["user_id", "device_hash"]).doUpdateSet({ seen_at: now }))
      .execute();
    const old = known.slice(devicesPerUser - 1).map((d) => d.device_hash);
    if (old.length > 0)
      await this.db
        .deleteFrom("user_devices")
        .where("user_id", "=", userId)
        .where("device_hash", "in", old)
        .execute();
    if (known.length > 0 && !known.some((d) => d.device_hash === hash)) {
      const browser = userAgent.replace(/\s+/g, " ").trim().slice(0, 160) || "unknown browser";
      this.notify({
        type: "account.newDevice",
        userId,
        detail: `${browser}, from ${address}`,
        key: `${userId}:${hash.slice(0, 16)}`,
      });
    }
    return token;
  }
}
