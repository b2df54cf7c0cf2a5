import type { SettingValue } from "../contract/api/settings.ts";
import type { Db } from "../db/database.ts";
import { ApiError } from "../errors.ts";
import type { SecretBox } from "../secrets/secret-box.ts";

/**
 * The editable panel settings (reference §10.3) with Outpost's defaults.
 * Each key has a type and a check; unknown keys are refused, never silently
 * dropped (the reference ignores them, which hides typos).
 */

interface SettingRule {
  kind: "string" | "boolean";
  /** Stored sealed, and never answered by the API (see `read`). */
  secret?: boolean;
  /** Its fallback is only a guess: the API answers isSet, whether one was saved (see `read`). */
  guessed?: boolean;
  fallback: (ctx: SettingsContext) => SettingValue;
  check?: (value: SettingValue) => string | undefined;
}

export interface SettingsContext {
  /** The URL the panel is reached at when none has been saved (from OUTPOST_PUBLIC_URL or the listen address). */
  defaultPublicUrl: string;
}

export const emailProviders = ["", "none", "smtp", "mailgun", "mailjet", "sendgrid", "debug"];

const maxLength = (n: number) => (v: SettingValue) =>
  String(v).length > n ? `at most ${n} characters` : undefined;

/** An http(s) URL, for a mod source's base address (a mirror, or a test's stand-in). */
const httpUrl = (v: SettingValue) => {
  try {
    const url = new URL(String(v));
    return url.protocol === "http:" || url.protocol === "https:"
      ? maxLength(500)(v)
      : "must be an http(s) URL";
  } catch {
    return "must be an http(s) URL";
  }
};

const rules: Record<string, SettingRule> = {
  "panel.settings.companyName": {
    kind: "string",
    fallback: () => "Outpost",
    check: (v) => (String(v).trim() === "" ? "must not be empty" : maxLength(100)(v)),
  },
  "panel.settings.defaultTheme": { kind: "string", fallback: () => "Outpost", check: maxLength(100) },
  "panel.settings.themeSettings": {
    kind: "string",
    fallback: () => "{}",
    check: (v) => {
      try {
        const parsed = JSON.parse(String(v));
        return parsed && typeof parsed === "object" && !Array.isArray(parsed)
          ? maxLength(4000)(v)
          : "must be a JSON object";
      } catch {
        return "must be a JSON object";
      }
    },
  },
  "panel.settings.masterUrl": {
    kind: "string",
    // The listen address says nothing of the address people use (0.0.0.0 shows as 127.0.0.1).
    guessed: true,
    fallback: (ctx) => ctx.defaultPublicUrl,
    check: (v) => {
      try {
        const url = new URL(String(v));
        return url.protocol === "http:" || url.protocol === "https:" ? undefined : "must be an http(s) URL";
      } catch {
        return "must be an http(s) URL";
      }
    },
  },
  // Off by default: an open sign-up page is a choice an administrator makes.
  "panel.registrationEnabled": { kind: "boolean", fallback: () => false },
  // Every account must set up two-factor sign-in before anything else (roles may require it too).
  "panel.security.require2fa": { kind: "boolean", fallback: () => false },
  "panel.email.provider": {
    kind: "string",
    fallback: () => "",
    check: (v) =>
      emailProviders.includes(String(v)) ? undefined : `must be one of ${emailProviders.join(", ")}`,
  },
  "panel.email.from": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.domain": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.host": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.key": { kind: "string", secret: true, fallback: () => "", check: maxLength(1000) },
  "panel.email.username": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.password": { kind: "string", secret: true, fallback: () => "", check: maxLength(1000) },
  // Off: an account with two-factor sign-in uses SFTP with a key, as the password alone skips the code.
  "panel.sftp.passwordWith2fa": { kind: "boolean", fallback: () => false },
  // Days the activity log keeps an entry; older ones are removed in the background (activity.ts).
  "panel.activity.retentionDays": {
    kind: "string",
    fallback: () => "90",
    check: (v) =>
      /^\d{1,5}$/.test(String(v)) && Number(v) >= 1 && Number(v) <= 36500
        ? undefined
        : "must be a whole number of days from 1 to 36500",
  },
  // Where the Mods section asks (issue 37): an administrator may point them at a mirror.
  "panel.mods.modrinthUrl": { kind: "string", fallback: () => "https://api.modrinth.com", check: httpUrl },
  "panel.mods.hangarUrl": { kind: "string", fallback: () => "https://hangar.papermc.io", check: httpUrl },
  "panel.mods.curseforgeUrl": {
    kind: "string",
    fallback: () => "https://api.curseforge.com",
    check: httpUrl,
  },
  // Which sources the Mods section offers at all (an administrator may turn one off).
  "panel.mods.modrinthEnabled": { kind: "boolean", fallback: () => true },
  "panel.mods.hangarEnabled": { kind: "boolean", fallback: () => true },
  "panel.mods.curseforgeEnabled": { kind: "boolean", fallback: () => true },
  // CurseForge answers only with a key; without one the Mods section does not offer it.
  "panel.mods.curseforgeKey": { kind: "string", secret: true, fallback: () => "", check: maxLength(200) },
};

export const settingKeys = Object.keys(rules);

/** The settings stored sealed and answered only as set / not set. */
export const secretSettingKeys = settingKeys.filter((key) => rules[key]?.secret);

/** What the API answers for a setting: a secret one's value is always "", with whether it is set. */
export interface SettingView {
  value: SettingValue;
  isSet?: boolean;
}

function unknownSetting(key: string): ApiError {
  return new ApiError(400, "ErrUnknownSetting", "${setting} is not a setting", { setting: key });
}

/** Coerces and checks one value; "true"/"false" strings are accepted for booleans. */
function normalise(key: string, value: unknown): SettingValue {
  const rule = rules[key];
  if (!rule) throw unknownSetting(key);
  let v: SettingValue;
  if (rule.kind === "boolean") {
    if (typeof value === "boolean") v = value;
    else if (value === "true" || value === "false") v = value === "true";
    else
      throw new ApiError(400, "ErrFieldType", "${field} must be a boolean", { field: key, type: "boolean" });
  } else {
    if (typeof value !== "string") {
      throw new ApiError(400, "ErrFieldType", "${field} must be a string", { field: key, type: "string" });
    }
    v = value;
  }
  const problem = rule.check?.(v);
  if (problem)
    throw new ApiError(400, "ErrSettingInvalid", "${setting} ${problem}", { setting: key, problem });
  return v;
}

export class Settings {
  /**
   * Values already read. Every write goes through setMany, which drops them, so the cache never
   * serves a stale value; it spares a query on hot paths (the local node's address is part of
   * every server list).
   */
  private readonly cache = new Map<string, SettingValue>();
  /** Bumped by every write: a read that began before it does not fill the cache with what it saw. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly ctx: SettingsContext,
    private readonly box: SecretBox,
  ) {}

  /** A setting's value for the panel's own use (a secret one opened). */
  async get(key: string): Promise<SettingValue> {
    const rule = rules[key];
    if (!rule) throw unknownSetting(key);
    if (this.cache.has(key)) return this.cache.get(key) as SettingValue;
    const generation = this.generation;
    const row = await this.db
      .selectFrom("settings")
      .select("value")
      .where("key", "=", key)
      .executeTakeFirst();
    const stored = row ? (JSON.parse(row.value) as SettingValue) : rule.fallback(this.ctx);
    // A secret is cached opened, in memory only.
    const value = row && rule.secret ? this.box.open(String(stored)) : stored;
    if (generation === this.generation) this.cache.set(key, value);
    return value;
  }

  /**
   * A setting as the API shows it. The reference answers the SMTP password
   * and the mail API key in plain text to any holder of settings.edit (and so
   * to anyone who steals such a session); Outpost answers "" with isSet, so a
   * secret can be replaced or cleared but never read back.
   */
  async read(key: string): Promise<SettingView> {
    if (rules[key]?.guessed) return { value: await this.get(key), isSet: await this.isStored(key) };
    if (!rules[key]?.secret) return { value: await this.get(key) };
    return { value: "", isSet: (await this.get(key)) !== "" };
  }

  private async isStored(key: string): Promise<boolean> {
    const row = await this.db.selectFrom("settings").select("key").where("key", "=", key).executeTakeFirst();
    return row !== undefined;
  }

  async getMany<K extends string>(keys: readonly K[]): Promise<Record<K, SettingValue>> {
    const out = {} as Record<K, SettingValue>;
    for (const key of keys) out[key] = await this.get(key);
    return out;
  }

  /**
   * Checks every value first, then writes them all in one transaction: all or
   * nothing. For a secret setting "" keeps what is stored — the API never
   * shows it, so a client that saves back the form it was given must not wipe
   * it — and null clears it.
   */
  async setMany(values: Record<string, unknown>): Promise<void> {
    const writes: [string, SettingValue | null][] = [];
    for (const [key, value] of Object.entries(values)) {
      if (rules[key]?.secret && value === "") continue;
      writes.push([key, rules[key]?.secret && value === null ? null : normalise(key, value)]);
    }
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of writes) {
        if (value === null) {
          await trx.deleteFrom("settings").where("key", "=", key).execute();
          continue;
        }
        const json = JSON.stringify(rules[key]?.secret ? this.box.seal(String(value)) : value);
        await trx
          .insertInto("settings")
          .values({ key, value: json })
          .onConflict((oc) => oc.column("key").doUpdateSet({ value: json }))
          .execute();
      }
    });
    this.generation++;
    this.cache.clear();
  }
}
