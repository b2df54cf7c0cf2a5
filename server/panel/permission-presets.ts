import {
  alwaysGrantedOnServer,
  builtInPresets,
  type PermissionPreset,
  withNeeds,
} from "../contract/scopes.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError } from "../errors.ts";
import { joinScopes, parseScopes } from "./scopes.ts";
import { checkServerScopes } from "./server-users.ts";

const presetNotFound = (id: string) =>
  new ApiError(404, "ErrPresetNotFound", "no permission preset ${preset}", { preset: id });
const builtInFixed = (id: string) =>
  new ApiError(400, "ErrPresetBuiltIn", "the built-in preset ${preset} cannot be changed or deleted", {
    preset: id,
  });
const presetExists = (id: string) =>
  new ApiError(409, "ErrPresetExists", "a permission preset ${preset} already exists", { preset: id });

/** A preset's scopes as stored: server scopes only, with what each needs, and server.view. */
function presetScopes(requested: readonly string[]): string[] {
  return withNeeds([alwaysGrantedOnServer, ...checkServerScopes(requested)]);
}

/** An id made from a name: lowercase letters, digits and dashes. */
function idFrom(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  return slug || "preset";
}

/**
 * Presets of server scopes (issue 39): Viewer, Operator, Manager and Co-owner are built in (rules
 * over the catalogue, contract/scopes.ts), and administrators add their own. A preset is a way to
 * choose scopes, not a link: a user given one holds its scopes as they were, and changing or
 * deleting the preset later changes no one's rights.
 */
export class PermissionPresets {
  constructor(private readonly db: Db) {}

  async list(): Promise<Required<PermissionPreset>[]> {
    const rows = await this.db.selectFrom("permission_presets").selectAll().orderBy("name").execute();
    return [
      ...builtInPresets.map((p) => ({ ...p, builtIn: true })),
      ...rows.map((row) => ({ id: row.id, name: row.name, scopes: parseScopes(row.scopes), builtIn: false })),
    ];
  }

  /** The scopes of a preset by id; 404 ErrPresetNotFound for none. */
  async scopesOf(id: string): Promise<string[]> {
    const builtIn = builtInPresets.find((p) => p.id === id);
    if (builtIn) return builtIn.scopes;
    const row = await this.db
      .selectFrom("permission_presets")
      .select("scopes")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw presetNotFound(id);
    return parseScopes(row.scopes);
  }

  async create(input: { id?: string; name: string; scopes: string[] }): Promise<Required<PermissionPreset>> {
    const scopes = presetScopes(input.scopes);
    const base = input.id ?? idFrom(input.name);
    // A name's id that is taken gets a number; an id asked for is taken as it is, or refused.
    for (let n = 1; n < 100; n++) {
      const id = input.id || n === 1 ? base : `${base}-${n}`;
      if (builtInPresets.some((p) => p.id === id)) {
        if (input.id) throw presetExists(id);
        continue;
      }
      try {
        await this.db
          .insertInto("permission_presets")
          .values({ id, name: input.name.trim(), scopes: joinScopes(scopes), created_at: Date.now() })
          .execute();
        return { id, name: input.name.trim(), scopes, builtIn: false };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (input.id) throw presetExists(id);
      }
    }
    throw presetExists(base);
  }

  async update(id: string, input: { name: string; scopes: string[] }): Promise<Required<PermissionPreset>> {
    if (builtInPresets.some((p) => p.id === id)) throw builtInFixed(id);
    const scopes = presetScopes(input.scopes);
    const done = await this.db
      .updateTable("permission_presets")
      .set({ name: input.name.trim(), scopes: joinScopes(scopes) })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw presetNotFound(id);
    return { id, name: input.name.trim(), scopes, builtIn: false };
  }

  async delete(id: string): Promise<void> {
    if (builtInPresets.some((p) => p.id === id)) throw builtInFixed(id);
    const done = await this.db.deleteFrom("permission_presets").where("id", "=", id).executeTakeFirst();
    if (Number(done.numDeletedRows) === 0) throw presetNotFound(id);
  }
}
