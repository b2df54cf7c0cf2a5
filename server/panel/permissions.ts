import { type ExpressionBuilder, sql } from "kysely";
import type { Db } from "../db/database.ts";
import type { Database } from "../db/tables.ts";
import { pendingPasswordHash } from "./account-rules.ts";
import type { PanelChanges } from "./panel-changes.ts";
import { holdsScope, joinScopes, parseScopes } from "./scopes.ts";

/** The server id of a user's global row. */
const globalRow = "";

/** Whether an account may act at all: an account without `login` holds nothing anywhere. */
export function mayLogIn(global: readonly string[]): boolean {
  return holdsScope(global, "login");
}

/**
 * The one rule of what a user may do on a server (reference §2.2): their global scopes and that
 * server's, and nothing at all once they lost `login`.
 */
export function rightsOn(global: readonly string[], onServer: readonly string[]): string[] {
  return mayLogIn(global) ? [...global, ...onServer] : [];
}

/** A user with a row on a server, as the server's user list shows them. */
export interface ServerMember {
  userId: number;
  username: string;
  email: string;
  scopes: string[];
  /** Invited and has not chosen a password yet. */
  invited: boolean;
}

/** One user's rows: server id ("" for the global row) → scopes. */
export type UserGrants = Map<string, string[]>;

/** What a user's roles give them: global scopes, and whether one of them requires two-factor. */
export interface RoleGrants {
  scopes: string[];
  require2fa: boolean;
}

const noRoles: RoleGrants = { scopes: [], require2fa: false };

/** Own global scopes with the roles' added. */
export function withRoles(own: readonly string[], roles: RoleGrants = noRoles): string[] {
  return roles.scopes.length === 0 ? [...own] : [...new Set([...own, ...roles.scopes])];
}

/**
 * A user's global scopes (comma-joined; null without a row) as a column of a query over `users`,
 * so that the session, its user and their scopes come in one round trip (principal.ts).
 */
export function globalScopesColumn(eb: ExpressionBuilder<Database, "users">) {
  return eb
    .selectFrom("permissions")
    .select("permissions.scopes")
    .whereRef("permissions.user_id", "=", "users.id")
    .where("permissions.server_id", "=", globalRow)
    .as("scopes");
}

/**
 * The `permissions` table: a global row per user (server id "") and a row per server they were
 * given. Every read and write of it goes through here (tests/unit/server/permission-walls.test.ts).
 * `within(trx)` does the same inside a caller's transaction.
 *
 * A user's global scopes are their own row's and their roles' (issue 39, roles.ts writes those):
 * every read of global scopes here adds the roles' (`ownGlobalScopes` is the row alone, for
 * editing it). Roles never hold `admin` or `login` (roles.ts), so whether an account may sign in
 * and who counts as an administrator stay the account's own row.
 */
export class Permissions {
  constructor(
    private readonly db: Db,
    /** Told after each write made outside a caller's transaction (that caller tells once it commits). */
    private readonly changes?: PanelChanges,
    private readonly inTransaction = false,
  ) {}

  /** The same, on a transaction's connection. */
  within(trx: Db): Permissions {
    return new Permissions(trx, this.changes, true);
  }

  private changed(): void {
    if (!this.inTransaction) this.changes?.tell("rights");
  }

  /** What the user holds everywhere: their own global row and their roles'. */
  async globalScopes(userId: number): Promise<string[]> {
    const [own, roles] = await Promise.all([this.ownGlobalScopes(userId), this.roleGrantsOf([userId])]);
    return withRoles(own, roles.get(userId));
  }

  /** The user's own global row, without their roles'. */
  async ownGlobalScopes(userId: number): Promise<string[]> {
    return (await this.serverScopes(userId, globalRow)) ?? [];
  }

  /** What each of these users' roles give them, in one query (users without roles are left out). */
  async roleGrantsOf(userIds: readonly number[]): Promise<Map<number, RoleGrants>> {
    const grants = new Map<number, RoleGrants>();
    if (userIds.length === 0) return grants;
    const rows = await this.db
      .selectFrom("user_roles")
      .innerJoin("roles", "roles.id", "user_roles.role_id")
      .select(["user_roles.user_id", "roles.scopes", "roles.require_2fa"])
      .where("user_roles.user_id", "in", [...new Set(userIds)])
      .execute();
    for (const row of rows) {
      const held = grants.get(row.user_id) ?? { scopes: [], require2fa: false };
      held.scopes = [...new Set([...held.scopes, ...parseScopes(row.scopes)])];
      held.require2fa ||= row.require_2fa === 1;
      grants.set(row.user_id, held);
    }
    return grants;
  }

  /** The scopes of the user's own row on the server; undefined when they have none there. */
  async serverScopes(userId: number, serverId: string): Promise<string[] | undefined> {
    const row = await this.db
      .selectFrom("permissions")
      .select("scopes")
      .where("user_id", "=", userId)
      .where("server_id", "=", serverId)
      .executeTakeFirst();
    return row ? parseScopes(row.scopes) : undefined;
  }

  /** What the user may do on the server now (`rightsOn`), both rows read in one query. */
  async scopesOn(userId: number, serverId: string): Promise<string[]> {
    const [rows, roles] = await Promise.all([
      this.db
        .selectFrom("permissions")
        .select(["server_id", "scopes"])
        .where("user_id", "=", userId)
        .where("server_id", "in", [globalRow, serverId])
        .execute(),
      this.roleGrantsOf([userId]),
    ]);
    const scopesOf = (id: string) => parseScopes(rows.find((row) => row.server_id === id)?.scopes ?? "");
    const global = withRoles(scopesOf(globalRow), roles.get(userId));
    return rightsOn(global, serverId === globalRow ? [] : scopesOf(serverId));
  }

  /** The user's own rows on each of these servers, in one query (servers without one are left out). */
  async serverScopesOnEach(userId: number, serverIds: readonly string[]): Promise<Map<string, string[]>> {
    const ids = serverIds.filter((id) => id !== globalRow);
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("permissions")
      .select(["server_id", "scopes"])
      .where("user_id", "=", userId)
      .where("server_id", "in", ids)
      .execute();
    return new Map(rows.map((row) => [row.server_id, parseScopes(row.scopes)]));
  }

  /** The servers the user has a row on (of `among`, when given). */
  async serversOf(userId: number, among?: readonly string[]): Promise<string[]> {
    if (among?.length === 0) return [];
    let query = this.serversOfQuery(userId);
    if (among) query = query.where("server_id", "in", among);
    return (await query.execute()).map((row) => row.server_id);
  }

  /** `serversOf` as a subquery, for a list filtered by it in the same round trip. */
  serversOfQuery(userId: number) {
    return this.db
      .selectFrom("permissions")
      .select("server_id")
      .where("user_id", "=", userId)
      .where("server_id", "!=", globalRow);
  }

  /** The users with a row on the server. */
  async usersOf(serverId: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom("permissions")
      .select("user_id")
      .where("server_id", "=", serverId)
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** The users with a row on the server and their scopes there, by username (one of them, by e-mail). */
  async membersOf(serverId: string, normalisedEmail?: string): Promise<ServerMember[]> {
    let query = this.db
      .selectFrom("permissions")
      .innerJoin("users", "users.id", "permissions.user_id")
      .select(["users.id", "users.username", "users.email", "users.password_hash", "permissions.scopes"])
      .where("permissions.server_id", "=", serverId);
    if (normalisedEmail !== undefined) query = query.where("users.email", "=", normalisedEmail);
    const rows = await query.orderBy("users.username").execute();
    return rows.map((row) => ({
      userId: row.id,
      username: row.username,
      email: row.email,
      scopes: parseScopes(row.scopes),
      invited: row.password_hash === pendingPasswordHash,
    }));
  }

  /** Every row of these users, in one query: user → server id ("" global) → scopes. */
  async grantsOf(userIds: readonly number[]): Promise<Map<number, UserGrants>> {
    const grants = new Map<number, UserGrants>();
    if (userIds.length === 0) return grants;
    const rows = await this.db
      .selectFrom("permissions")
      .select(["user_id", "server_id", "scopes"])
      .where("user_id", "in", [...new Set(userIds)])
      .execute();
    for (const row of rows) {
      const held = grants.get(row.user_id) ?? new Map<string, string[]>();
      held.set(row.server_id, parseScopes(row.scopes));
      grants.set(row.user_id, held);
    }
    // The global row holds the roles' scopes too (a user without a row of their own gets one here).
    for (const [userId, roles] of await this.roleGrantsOf(userIds)) {
      const held = grants.get(userId) ?? new Map<string, string[]>();
      held.set(globalRow, withRoles(held.get(globalRow) ?? [], roles));
      grants.set(userId, held);
    }
    return grants;
  }

  async setGlobalScopes(userId: number, scopes: readonly string[]): Promise<void> {
    await this.grant(userId, globalRow, scopes);
  }

  /** Sets the user's row on the server (made when missing). */
  async grant(userId: number, serverId: string, scopes: readonly string[]): Promise<void> {
    const value = joinScopes(scopes);
    await this.db
      .insertInto("permissions")
      .values({ user_id: userId, server_id: serverId, scopes: value })
      .onConflict((oc) => oc.columns(["user_id", "server_id"]).doUpdateSet({ scopes: value }))
      .execute();
    this.changed();
  }

  /** Rows for users named at a server's creation, in one statement (a user named twice fails it). */
  async addToNewServer(
    serverId: string,
    userIds: readonly number[],
    scopes: readonly string[],
  ): Promise<void> {
    if (userIds.length === 0) return;
    const value = joinScopes(scopes);
    await this.db
      .insertInto("permissions")
      .values(userIds.map((userId) => ({ user_id: userId, server_id: serverId, scopes: value })))
      .execute();
    this.changed();
  }

  /** Removes the user's row on the server and nothing else. */
  async revoke(userId: number, serverId: string): Promise<void> {
    await this.db
      .deleteFrom("permissions")
      .where("user_id", "=", userId)
      .where("server_id", "=", serverId)
      .execute();
    this.changed();
  }

  /** Every row on a server that is being deleted. */
  async dropServer(serverId: string): Promise<void> {
    await this.db.deleteFrom("permissions").where("server_id", "=", serverId).execute();
    this.changed();
  }

  /** Every row of a user who is being deleted, the global one included. */
  async dropUser(userId: number): Promise<void> {
    await this.db.deleteFrom("permissions").where("user_id", "=", userId).execute();
    this.changed();
  }

  /**
   * How many users hold `admin` in their global row; inside the writing transaction (`within`).
   * The no-op UPDATE first locks those rows (PostgreSQL): of two transactions demoting the last
   * two administrators, the second waits for the first and then counts what it left. SQLite runs
   * one writing transaction at a time anyway.
   */
  async administratorCount(): Promise<number> {
    await this.db
      .updateTable("permissions")
      .set({ scopes: sql`scopes` })
      .where("server_id", "=", globalRow)
      .where("scopes", "like", "%admin%")
      .execute();
    const rows = await this.db
      .selectFrom("permissions")
      .select("scopes")
      .where("server_id", "=", globalRow)
      .where("scopes", "like", "%admin%")
      .execute();
    return rows.filter((row) => parseScopes(row.scopes).includes("admin")).length;
  }
}
