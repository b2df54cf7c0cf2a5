import type { Db } from "../db/database.ts";
import type { Accounts } from "./accounts.ts";
import type { Permissions } from "./permissions.ts";
import type { Settings } from "./settings.ts";

/**
 * What the activity log reads of the state a change is about to replace, so that an entry can
 * say "before → after" (a server's old name, a user's old scopes). Each is one small read by key,
 * done only for the few routes whose rule asks for it (activity-actions.ts); undefined when there
 * was nothing before (a user new to the server).
 */
export interface BeforeReads {
  serverName(serverId: string): Promise<string | undefined>;
  serverUserScopes(serverId: string, email: string): Promise<string[] | undefined>;
  userScopes(userId: number): Promise<string[] | undefined>;
  user(userId: number): Promise<{ username: string; email: string } | undefined>;
  /** A setting as the API shows it: a secret one is never read back. */
  setting(key: string): Promise<unknown>;
}

export function beforeReads(services: {
  db: Db;
  accounts: Accounts;
  permissions: Permissions;
  settings: Settings;
}): BeforeReads {
  const { db, accounts, permissions, settings } = services;
  return {
    async serverName(serverId) {
      const row = await db.selectFrom("servers").select("name").where("id", "=", serverId).executeTakeFirst();
      return row?.name;
    },
    async serverUserScopes(serverId, email) {
      const user = await accounts.byEmail(email);
      return user ? permissions.serverScopes(user.id, serverId) : undefined;
    },
    async userScopes(userId) {
      return (await accounts.byId(userId)) ? permissions.globalScopes(userId) : undefined;
    },
    async user(userId) {
      const user = await accounts.byId(userId);
      return user ? { username: user.username, email: user.email } : undefined;
    },
    async setting(key) {
      const view = await settings.read(key);
      return "isSet" in view && view.value === "" ? undefined : view.value;
    },
  };
}
