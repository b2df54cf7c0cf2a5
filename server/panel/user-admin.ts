import { sql } from "kysely";
import type { Paging } from "../contract/api/servers.ts";
import { globalScopes, serverScopes } from "../contract/scopes.ts";
import type { Db } from "../db/database.ts";
import { ApiError, errors } from "../errors.ts";
import { checkNewPassword } from "./account-rules.ts";
import { type Accounts, toUser, type User } from "./accounts.ts";
import { likePattern, pageOf, pageSizeMax } from "./paging.ts";
import { type Permissions, rightsOn } from "./permissions.ts";
import { holdsScope, registeredUserScopes } from "./scopes.ts";
import type { Sessions } from "./sessions.ts";

/** Who is administering: their user id, their global scopes, and the session they call with. */
export interface Editor {
  userId: number;
  scopes: string[];
  sessionHash: string;
}

/** Ends what a user still holds open outside the database (console sockets, SFTP sessions), saying why. */
export type CloseLive = (userId: number, reason?: string) => void;

const knownScopes = new Set<string>([...globalScopes, ...serverScopes]);

const lastAdmin = () =>
  new ApiError(400, "ErrLastAdmin", "the last administrator cannot lose the admin scope or be deleted");
const ownAdmin = () => new ApiError(400, "ErrOwnAdmin", "you cannot remove your own admin scope");
const cannotDeleteSelf = () => new ApiError(400, "ErrCannotDeleteSelf", "you cannot delete your own account");
const reachesFurther = () => new ApiError(403, "ErrUserOutranks", "this user holds scopes you do not hold");

/**
 * The administration of other users (reference §12.18, scopes §2.5). Where the reference is
 * weak, this decides:
 * - A user created here gets what a registered user gets (`login`, `self.edit`, `self.clients`),
 *   not the reference's nothing, which leaves an account that cannot sign in.
 * - Passwords follow the same rules as everywhere (at least 8 characters), not the reference's none.
 * - A password set by an editor ends the user's sessions (except the editor's own).
 * - An editor who is not an administrator changes or deletes only users who reach no further than
 *   they do (every global scope, and every scope on every server, of the user is theirs too):
 *   otherwise setting someone's password would hand them that user's reach. On scopes they toggle
 *   only the ones they hold (the reference's rule), the others stay as they were; an
 *   administrator's scopes only an administrator changes.
 * - Nobody removes the last administrator's `admin` or their own, and nobody deletes themselves.
 * - Scopes outside the catalogue are dropped: no route checks them, so storing one grants nothing.
 */
export class UserAdmin {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly permissions: Permissions,
    private readonly sessions: Sessions,
    private readonly closeLive: CloseLive = () => {},
  ) {}

  async search(query: {
    page?: number;
    limit?: number;
    username?: string;
    email?: string;
  }): Promise<{ users: User[]; paging: Paging }> {
    const { page, pageSize, offset } = pageOf(query);
    const fields = (["username", "email"] as const).filter((field) => query[field]);
    // The UI sends `*text*`; a bare text is the same search, as for server names.
    let filtered = this.db.selectFrom("users");
    for (const field of fields) {
      const search = query[field] ?? "";
      const pattern = likePattern(search.includes("*") ? search : `*${search}*`);
      filtered = filtered.where(sql<boolean>`lower(${sql.ref(field)}) like ${pattern} escape '\\'`);
    }
    const counted = await filtered.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
    const total = Number(counted?.n ?? 0);
    const rows = await filtered
      .select(["id", "username", "email", "otp_active"])
      .orderBy("username")
      .orderBy("id")
      .limit(pageSize)
      .offset(offset)
      .execute();
    return { users: rows.map(toUser), paging: { page, pageSize, maxSize: pageSizeMax, total } };
  }

  async get(id: number): Promise<User> {
    const user = await this.accounts.byId(id);
    if (!user) throw errors.userNotFound();
    return user;
  }

  async create(input: { username: string; email: string; password: string }): Promise<User> {
    return this.accounts.create({ ...input, scopes: registeredUserScopes });
  }

  async update(
    id: number,
    fields: { username?: string; email?: string; password?: string },
    editor: Editor,
  ): Promise<void> {
    await this.get(id);
    await this.assertReach(id, editor);
    // Every field is checked before anything is written.
    if (fields.password !== undefined) checkNewPassword(fields.password);
    await this.accounts.update(id, { username: fields.username, email: fields.email });
    if (fields.password !== undefined) {
      await this.accounts.setPassword(id, fields.password);
      // Revoking the sessions also closes the sockets and SFTP sessions opened with them.
      await this.sessions.revokeAllOf(id, editor.sessionHash);
    }
  }

  /** Deletes a user and, at once, everything that lets them act: sessions, tokens, clients, permissions, open connections. */
  async delete(id: number, editor: Editor): Promise<void> {
    if (id === editor.userId) throw cannotDeleteSelf();
    await this.get(id);
    await this.assertReach(id, editor);
    await this.db.transaction().execute(async (trx) => {
      const permissions = this.permissions.within(trx);
      const scopes = await permissions.ownGlobalScopes(id);
      if (scopes.includes("admin") && (await permissions.administratorCount()) <= 1) throw lastAdmin();
      // Sessions (cookies and bearer tokens), OAuth clients, permissions and settings go with the
      // row (ON DELETE CASCADE); deleted here by name as well, so nothing depends on the cascade.
      await trx.deleteFrom("sessions").where("user_id", "=", id).execute();
      await trx.deleteFrom("oauth_clients").where("user_id", "=", id).execute();
      await permissions.dropUser(id);
      await trx.deleteFrom("users").where("id", "=", id).execute();
    });
    this.closeLive(id);
  }

  /** The user's own global scopes (their roles' are the roles', PUT /api/users/{id}/roles). */
  async scopesOf(id: number): Promise<string[]> {
    await this.get(id);
    return this.permissions.ownGlobalScopes(id);
  }

  async setScopes(id: number, requested: string[], editor: Editor): Promise<void> {
    await this.get(id);
    const isAdmin = holdsScope(editor.scopes, "admin");
    const wanted = new Set(requested.filter((s) => knownScopes.has(s)));
    let lost: string[] = [];
    await this.db.transaction().execute(async (trx) => {
      const permissions = this.permissions.within(trx);
      const current = await permissions.ownGlobalScopes(id);
      if (!isAdmin && current.includes("admin")) throw reachesFurther();
      // An administrator replaces the set; anyone else toggles only the scopes they hold.
      const next = isAdmin
        ? [...wanted]
        : [
            ...current.filter((s) => !holdsScope(editor.scopes, s)),
            ...[...wanted].filter((s) => holdsScope(editor.scopes, s)),
          ];
      if (current.includes("admin") && !next.includes("admin")) {
        if (id === editor.userId) throw ownAdmin();
        if ((await permissions.administratorCount()) <= 1) throw lastAdmin();
      }
      await permissions.setGlobalScopes(id, next);
      lost = current.filter((s) => !next.includes(s));
    });
    // A global scope reaches every server: what was opened with it (sockets, SFTP) reopens with what is left.
    if (lost.length > 0) this.closeLive(id, "your permissions changed");
  }

  /** A non-administrator may act only on a user whose every scope (global and per server) they hold. */
  private async assertReach(id: number, editor: Editor): Promise<void> {
    if (holdsScope(editor.scopes, "admin") || id === editor.userId) return;
    const grants = await this.permissions.grantsOf([id, editor.userId]);
    const editorOn = grants.get(editor.userId) ?? new Map<string, string[]>();
    for (const [serverId, scopes] of grants.get(id) ?? []) {
      // On the target's global row, the editor's global scopes; on a server, what they hold there.
      const held = serverId ? rightsOn(editor.scopes, editorOn.get(serverId) ?? []) : editor.scopes;
      if (!scopes.every((s) => holdsScope(held, s))) throw reachesFurther();
    }
  }
}
