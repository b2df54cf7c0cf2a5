/**
 * The scope catalogue (reference §2.1) and the one rule that evaluates it
 * (reference §2.2): a scope is held when listed, or when `admin` is listed,
 * or — for a server scope — when `server.admin` is listed.
 */
export const globalScopes = [
  "admin",
  "login",
  "oauth2.auth",
  "nodes.view",
  "nodes.create",
  "nodes.edit",
  "nodes.delete",
  "nodes.deploy",
  "self.edit",
  "self.clients",
  "server.create",
  "settings.edit",
  "templates.view",
  "templates.local.edit",
  "templates.repo.create",
  "templates.repo.delete",
  "users.info.search",
  "users.info.view",
  "users.info.edit",
  "users.perms.view",
  "users.perms.edit",
  "panel",
] as const;

export const serverScopes = [
  "server.view",
  "server.admin",
  "server.delete",
  "server.definition.view",
  "server.definition.edit",
  "server.data.view",
  "server.data.edit",
  "server.data.edit.admin",
  "server.flags.view",
  "server.flags.edit",
  "server.name.edit",
  "server.clients.view",
  "server.clients.edit",
  "server.clients.create",
  "server.clients.delete",
  "server.users.view",
  "server.users.create",
  "server.users.edit",
  "server.users.delete",
  "server.tasks.view",
  "server.tasks.run",
  "server.tasks.create",
  "server.tasks.delete",
  "server.tasks.edit",
  "server.reload",
  "server.start",
  "server.stop",
  "server.kill",
  "server.install",
  "server.files.view",
  "server.files.edit",
  "server.sftp",
  "server.console",
  "server.console.send",
  "server.stats",
  "server.status",
  "server.backup.view",
  "server.backup.create",
  "server.backup.restore",
  "server.backup.delete",
  "server.activity.view",
] as const;

export type Scope = (typeof globalScopes)[number] | (typeof serverScopes)[number];

const serverScopeSet = new Set<string>(serverScopes);

export function isServerScope(scope: string): boolean {
  return serverScopeSet.has(scope);
}

export function holdsScope(held: readonly string[], scope: string): boolean {
  if (held.includes(scope) || held.includes("admin")) return true;
  return isServerScope(scope) && held.includes("server.admin");
}

/** Scopes are stored comma-joined (reference §2.2). */
export function parseScopes(stored: string): string[] {
  return stored ? stored.split(",").filter(Boolean) : [];
}

export function joinScopes(scopes: readonly string[]): string {
  return [...new Set(scopes)].join(",");
}

/** What a user who registers gets; enough to sign in and manage their own account. */
export const registeredUserScopes: Scope[] = ["login", "self.edit", "self.clients"];
