/**
 * The scope catalogue (reference §2.1) and the default grants, shared by the panel and the browser.
 * Browser-safe: no imports (tests/unit/server/contract-walls.test.ts).
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
  "server.databases.view",
  "server.databases.view.password",
  "server.databases.create",
  "server.databases.delete",
  "server.databases.rotate",
  "server.mods.view",
  "server.mods.edit",
] as const;

export type Scope = (typeof globalScopes)[number] | (typeof serverScopes)[number];

/**
 * What every user named at server creation gets on it (reference §2.4): every
 * server scope except these, which stay with administrators.
 */
const keptForAdministrators = new Set([
  "server.admin",
  "server.delete",
  "server.definition.view",
  "server.definition.edit",
  "server.flags.view",
  "server.data.edit.admin",
  "server.tasks.edit",
  "server.backup.view",
  "server.backup.create",
  "server.backup.restore",
  "server.backup.delete",
  // Who did what on the server, from which address: the administrator's to share.
  "server.activity.view",
]);

export const defaultServerUserScopes: string[] = serverScopes.filter((s) => !keptForAdministrators.has(s));
