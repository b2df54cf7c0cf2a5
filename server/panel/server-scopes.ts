import { serverScopes } from "./scopes.ts";

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
