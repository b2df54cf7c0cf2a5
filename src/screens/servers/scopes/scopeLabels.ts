import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

// Every server scope (reference §2.1) with a label people understand, in groups, for the scope
// checkboxes of the users and OAuth client sections. A unit test checks that the groups hold
// each server scope of the panel exactly once.

export interface ScopeGroup {
  id: string;
  label: MessageDescriptor;
  scopes: {
    scope: string;
    label: MessageDescriptor;
    /** What the scope allows with the others chosen, when that is less than its label says. */
    note?: (holds: (scope: string) => boolean) => MessageDescriptor | undefined;
  }[];
}

/**
 * SFTP shows what the file manager shows (server/panel/sftp-auth.ts): signing in needs
 * "Browse and download files", changing anything "Change, upload and delete files".
 */
function sftpNote(holds: (scope: string) => boolean): MessageDescriptor | undefined {
  if (!holds("server.sftp")) return undefined;
  if (!holds("server.files.view")) return msg`SFTP needs “Browse and download files” to sign in`;
  if (!holds("server.files.edit")) return msg`SFTP is read-only without “Change, upload and delete files”`;
  return undefined;
}

export const scopeGroups: ScopeGroup[] = [
  {
    id: "general",
    label: msg`General`,
    scopes: [
      { scope: "server.view", label: msg`See the server` },
      { scope: "server.status", label: msg`See whether it runs` },
      { scope: "server.stats", label: msg`See CPU, memory and players` },
      { scope: "server.players.manage", label: msg`Kick, ban, whitelist and op players` },
      { scope: "server.name.edit", label: msg`Rename` },
      { scope: "server.flags.view", label: msg`See start and restart options` },
      { scope: "server.flags.edit", label: msg`Change start and restart options` },
    ],
  },
  {
    id: "console",
    label: msg`Console, start and stop`,
    scopes: [
      { scope: "server.console", label: msg`Read the console` },
      { scope: "server.console.send", label: msg`Send console commands` },
      { scope: "server.start", label: msg`Start` },
      { scope: "server.stop", label: msg`Stop` },
      { scope: "server.kill", label: msg`Kill` },
      { scope: "server.install", label: msg`Run the install again` },
      { scope: "server.reload", label: msg`Reload the definition` },
    ],
  },
  {
    id: "files",
    label: msg`Files and SFTP`,
    scopes: [
      { scope: "server.files.view", label: msg`Browse and download files` },
      { scope: "server.files.edit", label: msg`Change, upload and delete files` },
      { scope: "server.sftp", label: msg`Connect with SFTP`, note: sftpNote },
      { scope: "server.mods.view", label: msg`See installed mods and plugins, and search for more` },
      { scope: "server.mods.edit", label: msg`Install and remove mods and plugins` },
    ],
  },
  {
    id: "backups",
    label: msg`Backups`,
    scopes: [
      { scope: "server.backup.view", label: msg`See and download backups` },
      { scope: "server.backup.create", label: msg`Make backups` },
      { scope: "server.backup.restore", label: msg`Restore backups` },
      { scope: "server.backup.delete", label: msg`Delete backups` },
    ],
  },
  {
    id: "databases",
    label: msg`Databases`,
    scopes: [
      { scope: "server.databases.view", label: msg`See databases and their users` },
      { scope: "server.databases.view.password", label: msg`See database passwords` },
      { scope: "server.databases.create", label: msg`Create databases` },
      { scope: "server.databases.rotate", label: msg`Change database passwords` },
      { scope: "server.databases.delete", label: msg`Delete databases` },
    ],
  },
  {
    id: "network",
    label: msg`Network`,
    scopes: [
      { scope: "server.allocations.view", label: msg`See the server's addresses` },
      { scope: "server.allocations.edit", label: msg`Add and remove ports, choose the primary` },
    ],
  },
  {
    id: "settings",
    label: msg`Settings and data`,
    scopes: [
      { scope: "server.data.view", label: msg`See the settings` },
      { scope: "server.data.edit", label: msg`Change the settings users may edit` },
      { scope: "server.data.edit.admin", label: msg`Change every setting` },
      { scope: "server.definition.view", label: msg`See the definition` },
      { scope: "server.definition.edit", label: msg`Change the definition` },
    ],
  },
  {
    id: "tasks",
    label: msg`Tasks`,
    scopes: [
      { scope: "server.tasks.view", label: msg`See tasks` },
      { scope: "server.tasks.run", label: msg`Run tasks` },
      { scope: "server.tasks.create", label: msg`Create tasks` },
      { scope: "server.tasks.edit", label: msg`Change tasks` },
      { scope: "server.tasks.delete", label: msg`Delete tasks` },
    ],
  },
  {
    id: "users",
    label: msg`Users`,
    scopes: [
      { scope: "server.users.view", label: msg`See the users` },
      { scope: "server.users.create", label: msg`Add users` },
      { scope: "server.users.edit", label: msg`Change users' permissions` },
      { scope: "server.users.delete", label: msg`Remove users` },
      { scope: "server.activity.view", label: msg`See the activity log` },
    ],
  },
  {
    id: "clients",
    label: msg`OAuth clients`,
    scopes: [
      { scope: "server.clients.view", label: msg`See OAuth clients` },
      { scope: "server.clients.create", label: msg`Create OAuth clients` },
      { scope: "server.clients.edit", label: msg`Change OAuth clients` },
      { scope: "server.clients.delete", label: msg`Delete OAuth clients` },
    ],
  },
  {
    id: "admin",
    label: msg`Administration`,
    scopes: [
      { scope: "server.admin", label: msg`Everything on this server` },
      { scope: "server.delete", label: msg`Delete the server` },
    ],
  },
];

const labels = new Map(scopeGroups.flatMap((g) => g.scopes.map((s) => [s.scope, s.label] as const)));

/** The label of a scope, or undefined for one this client does not know. */
export function scopeLabel(scope: string): MessageDescriptor | undefined {
  return labels.get(scope);
}

/** Every scope listed is always part of a server's scope list (reference §2.2). */
export const alwaysGranted = "server.view";
