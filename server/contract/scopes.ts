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
  "server.players.manage",
  "server.allocations.view",
  "server.allocations.edit",
  "server.mods.view",
  "server.mods.edit",
] as const;

export type Scope = (typeof globalScopes)[number] | (typeof serverScopes)[number];

/**
 * What every user named at server creation gets on it (reference §2.4): every server scope except
 * these, which stay with administrators. The wizard says so (create/UsersStep.tsx).
 */
const keptAtCreation = new Set([
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

export const creationUserScopes: string[] = serverScopes.filter((s) => !keptAtCreation.has(s));

/**
 * Scopes that stay with administrators: no preset gives them, and Co-owner is every other server
 * scope (whatever the catalogue holds, scopes added later included).
 */
const keptForAdministrators = new Set<string>([
  "server.admin",
  "server.delete",
  "server.definition.view",
  "server.definition.edit",
  "server.flags.edit",
  "server.data.edit.admin",
]);

/** What a scope is of no use without: choosing it brings these along (edit needs view). */
export const scopeNeeds: Readonly<Record<string, readonly string[]>> = {
  "server.console.send": ["server.console"],
  "server.files.edit": ["server.files.view"],
  "server.sftp": ["server.files.view"],
  "server.flags.edit": ["server.flags.view"],
  "server.data.edit": ["server.data.view"],
  "server.data.edit.admin": ["server.data.view"],
  "server.definition.edit": ["server.definition.view"],
  "server.backup.create": ["server.backup.view"],
  "server.backup.restore": ["server.backup.view"],
  "server.backup.delete": ["server.backup.view"],
  "server.tasks.run": ["server.tasks.view"],
  "server.tasks.create": ["server.tasks.view", "server.tasks.edit"],
  "server.tasks.edit": ["server.tasks.view"],
  "server.tasks.delete": ["server.tasks.view"],
  "server.users.create": ["server.users.view"],
  "server.users.edit": ["server.users.view"],
  "server.users.delete": ["server.users.view"],
  "server.clients.create": ["server.clients.view"],
  "server.clients.edit": ["server.clients.view"],
  "server.clients.delete": ["server.clients.view"],
  "server.databases.view.password": ["server.databases.view"],
  "server.databases.create": ["server.databases.view"],
  "server.databases.delete": ["server.databases.view"],
  "server.databases.rotate": ["server.databases.view"],
  "server.mods.edit": ["server.mods.view"],
  "server.allocations.edit": ["server.allocations.view"],
};

/** The scopes with what they need, transitively, in catalogue order. */
export function withNeeds(scopes: Iterable<string>): string[] {
  const out = new Set<string>();
  const add = (scope: string) => {
    if (out.has(scope)) return;
    out.add(scope);
    for (const needed of scopeNeeds[scope] ?? []) add(needed);
  };
  for (const scope of scopes) add(scope);
  const order = new Map<string, number>(serverScopes.map((s, i) => [s, i]));
  return [...out].sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || a.localeCompare(b));
}

/** Part of every server user's scopes (reference §2.2). */
export const alwaysGrantedOnServer = "server.view";

/** A set of server scopes to give at once. */
export interface PermissionPreset {
  id: string;
  name: string;
  scopes: string[];
  /** One of the four shipped with the panel: not editable, not deletable. */
  builtIn?: boolean;
}

const byPrefix =
  (...prefixes: string[]) =>
  (scope: string) =>
    prefixes.some((p) => scope === p || scope.startsWith(`${p}.`));

/**
 * Each built-in preset as a rule over the catalogue, not a list: a scope added to a family
 * (server.players.*, server.mods.*) joins the presets that take that family.
 */
const viewerRule = (s: string) =>
  ["server.view", "server.status", "server.stats", "server.console", "server.files.view"].includes(s);
const operatorRule = (s: string) =>
  viewerRule(s) ||
  [
    "server.console.send",
    "server.start",
    "server.stop",
    "server.backup.view",
    "server.backup.create",
  ].includes(s) ||
  byPrefix("server.players")(s);
const managerRule = (s: string) =>
  operatorRule(s) ||
  ["server.files.edit", "server.sftp"].includes(s) ||
  byPrefix("server.tasks", "server.databases", "server.mods", "server.users")(s);
const coownerRule = (s: string) => !keptForAdministrators.has(s);

export const builtInPresets: readonly PermissionPreset[] = (
  [
    ["viewer", "Viewer", viewerRule],
    ["operator", "Operator", operatorRule],
    ["manager", "Manager", managerRule],
    ["coowner", "Co-owner", coownerRule],
  ] as const
).map(([id, name, rule]) => ({ id, name, scopes: withNeeds(serverScopes.filter(rule)), builtIn: true }));

/**
 * What a new server user gets when no scopes are chosen (the Add-user box, the API without
 * `scopes`): the Viewer preset.
 */
export const defaultServerUserScopes: string[] = builtInPresets[0].scopes;
