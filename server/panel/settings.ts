import type { Db } from "../db/database.ts";
import { ApiError } from "../errors.ts";

/**
 * The editable panel settings (reference §10.3) with Outpost's defaults.
 * Each key has a type and a check; unknown keys are refused, never silently
 * dropped (the reference ignores them, which hides typos).
 */
export type SettingValue = string | boolean;

interface SettingRule {
  kind: "string" | "boolean";
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
  "panel.email.provider": {
    kind: "string",
    fallback: () => "",
    check: (v) =>
      emailProviders.includes(String(v)) ? undefined : `must be one of ${emailProviders.join(", ")}`,
  },
  "panel.email.from": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.domain": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.host": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.key": { kind: "string", fallback: () => "", check: maxLength(1000) },
  "panel.email.username": { kind: "string", fallback: () => "", check: maxLength(255) },
  "panel.email.password": { kind: "string", fallback: () => "", check: maxLength(1000) },
};

export const settingKeys = Object.keys(rules);

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
  ) {}

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
    const value = row ? (JSON.parse(row.value) as SettingValue) : rule.fallback(this.ctx);
    if (generation === this.generation) this.cache.set(key, value);
    return value;
  }

  async getMany<K extends string>(keys: readonly K[]): Promise<Record<K, SettingValue>> {
    const out = {} as Record<K, SettingValue>;
    for (const key of keys) out[key] = await this.get(key);
    return out;
  }

  /** Checks every value first, then writes them all in one transaction: all or nothing. */
  async setMany(values: Record<string, unknown>): Promise<void> {
    const checked = Object.entries(values).map(([key, value]) => [key, normalise(key, value)] as const);
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of checked) {
        const json = JSON.stringify(value);
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
