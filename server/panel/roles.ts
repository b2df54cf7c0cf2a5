import { globalScopes } from "../contract/scopes.ts";
import type { Db } from "../db/database.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ApiError, errors } from "../errors.ts";
import type { PanelChanges } from "./panel-changes.ts";
import type { Permissions } from "./permissions.ts";
import { joinScopes, parseScopes } from "./scopes.ts";

export interface Role {
  id: number;
  name: string;
  scopes: string[];
  require2fa: boolean;
  users: number;
}

/**
 * What a role may hold: global scopes but `admin` (who is an administrator, and the last one,
 * stays the accounts' own: a role edit must not make or unmake one) and `login` (the account's
 * own switch: taking it away bars the account, whatever its roles).
 */
const roleScopes = new Set<string>(globalScopes.filter((s) => s !== "admin" && s !== "login"));

const roleNotFound = () => new ApiError(404, "ErrRoleNotFound", "role not found");
const roleExists = (name: string) =>
  new ApiError(409, "ErrRoleExists", "a role named ${name} already exists", { name });

/** The scopes asked for, families (`nodes.*`) spelt out; 400 names the first a role may not hold. */
function checkRoleScopes(requested: readonly string[]): string[] {
  const out = new Set<string>();
  for (const scope of requested) {
    const family = scope.endsWith(".*") ? scope.slice(0, -1) : undefined;
    const matches = family ? [...roleScopes].filter((s) => s.startsWith(family)) : [scope];
    if (matches.length === 0 || !matches.every((s) => roleScopes.has(s)))
      throw new ApiError(400, "ErrFieldInvalid", "${field} is not valid: a role cannot hold ${scope}", {
        field: "scopes",
        scope,
      });
    for (const s of matches) out.add(s);
  }
  return globalScopes.filter((s) => out.has(s));
}

/** Ends what users still hold open with rights they just lost (console sockets, SFTP), and their tasks beyond them. */
export type RightsLost = (userId: number) => void;

/**
 * Roles (issue 39): administrators name a set of global scopes and give it to users, whose global
 * scopes are then their own and their roles' (permissions.ts reads both). A change is in force at
 * once: every session's scopes are read again after any write (principal.ts, read-cache.ts), and
 * a user who lost a scope by it has what they opened with it closed (`rightsLost`), as a change of
 * their own scopes does (user-admin.ts).
 */
export class Roles {
  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
    private readonly changes: PanelChanges,
    private readonly rightsLost: RightsLost = () => {},
  ) {}

  async list(): Promise<Role[]> {
    const rows = await this.db
      .selectFrom("roles")
      .leftJoin("user_roles", "user_roles.role_id", "roles.id")
      .select((eb) => [
        "roles.id",
        "roles.name",
        "roles.scopes",
        "roles.require_2fa",
        eb.fn.count<number>("user_roles.user_id").as("users"),
      ])
      .groupBy(["roles.id", "roles.name", "roles.scopes", "roles.require_2fa"])
      .orderBy("roles.name")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      scopes: parseScopes(row.scopes),
      require2fa: row.require_2fa === 1,
      users: Number(row.users),
    }));
  }

  private async byId(id: number): Promise<Role> {
    const role = (await this.list()).find((r) => r.id === id);
    if (!role) throw roleNotFound();
    return role;
  }

  async create(input: { name: string; scopes: string[]; require2fa?: boolean }): Promise<Role> {
    const scopes = checkRoleScopes(input.scopes);
    const name = input.name.trim();
    try {
      const row = await this.db
        .insertInto("roles")
        .values({
          name,
          scopes: joinScopes(scopes),
          require_2fa: input.require2fa ? 1 : 0,
          created_at: Date.now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return this.byId(row.id);
    } catch (err) {
      throw isUniqueViolation(err) ? roleExists(name) : err;
    }
  }

  async update(id: number, input: { name: string; scopes: string[]; require2fa?: boolean }): Promise<Role> {
    const scopes = checkRoleScopes(input.scopes);
    const name = input.name.trim();
    const before = await this.byId(id);
    const members = await this.membersOf(id);
    const held = await this.permissions.roleGrantsOf(members);
    try {
      await this.db
        .updateTable("roles")
        .set({
          name,
          scopes: joinScopes(scopes),
          require_2fa: (input.require2fa ?? before.require2fa) ? 1 : 0,
        })
        .where("id", "=", id)
        .execute();
    } catch (err) {
      throw isUniqueViolation(err) ? roleExists(name) : err;
    }
    await this.afterChange(members, held);
    return this.byId(id);
  }

  async delete(id: number): Promise<void> {
    await this.byId(id);
    const members = await this.membersOf(id);
    const held = await this.permissions.roleGrantsOf(members);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("user_roles").where("role_id", "=", id).execute();
      await trx.deleteFrom("roles").where("id", "=", id).execute();
    });
    await this.afterChange(members, held);
  }

  /** The ids of the user's roles. */
  async rolesOf(userId: number): Promise<number[]> {
    await this.assertUser(userId);
    const rows = await this.db
      .selectFrom("user_roles")
      .select("role_id")
      .where("user_id", "=", userId)
      .orderBy("role_id")
      .execute();
    return rows.map((row) => row.role_id);
  }

  /**
   * Sets the user's roles to exactly these (PUT /api/users/{id}/roles, and single sign-on mapping
   * a provider's claim to roles). Unknown role ids are refused, nothing written.
   */
  async setUserRoles(userId: number, roleIds: readonly number[]): Promise<number[]> {
    await this.assertUser(userId);
    const wanted = [...new Set(roleIds)];
    if (wanted.length > 0) {
      const found = await this.db.selectFrom("roles").select("id").where("id", "in", wanted).execute();
      const missing = wanted.find((id) => !found.some((row) => row.id === id));
      if (missing !== undefined)
        throw new ApiError(404, "ErrRoleNotFound", "role ${role} not found", { role: missing });
    }
    const held = await this.permissions.roleGrantsOf([userId]);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("user_roles").where("user_id", "=", userId).execute();
      if (wanted.length > 0)
        await trx
          .insertInto("user_roles")
          .values(wanted.map((role_id) => ({ user_id: userId, role_id })))
          .execute();
    });
    await this.afterChange([userId], held);
    return wanted.sort((a, b) => a - b);
  }

  private async membersOf(roleId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("user_roles")
      .select("user_id")
      .where("role_id", "=", roleId)
      .execute();
    return rows.map((row) => row.user_id);
  }

  private async assertUser(userId: number): Promise<void> {
    const row = await this.db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
    if (!row) throw errors.userNotFound();
  }

  /** Tells who follows rights, and closes what members opened with a scope they no longer hold. */
  private async afterChange(
    members: readonly number[],
    before: Map<number, { scopes: string[] }>,
  ): Promise<void> {
    this.changes.tell("rights");
    if (members.length === 0) return;
    const after = await this.permissions.grantsOf(members);
    for (const userId of members) {
      const now = after.get(userId)?.get("") ?? [];
      if ((before.get(userId)?.scopes ?? []).some((s) => !now.includes(s))) this.rightsLost(userId);
    }
  }
}
