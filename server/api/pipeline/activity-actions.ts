import type { FastifyRequest } from "fastify";
import { sftpKeyGrant } from "../../contract/node/sftp-username.ts";
import type { BeforeReads } from "../../panel/activity-before.ts";
import { secretSettingKeys } from "../../panel/settings.ts";
import { dataValues } from "../server-data.ts";
import { redacted } from "./activity-details.ts";

/**
 * What each API route that changes something is called in the activity log:
 * the one table (`METHOD url-pattern` → action). The route hook
 * (activity-hook.ts) looks a route up once, when it is added; a write route
 * missing here is still recorded, as `api.write` with its method and path,
 * and tests/unit/server/activity-actions.test.ts fails until it is named.
 *
 * An entry is an action name, or one computed from the request (a PUT of a
 * file that makes a folder), with `details` when what is worth keeping is
 * not the body as it is.
 */
export interface ActionRule {
  /** Computed: undefined leaves the request out (another source records it). */
  action: string | ((request: FastifyRequest) => string | undefined);
  /** What the details are instead of the body and query (each then stripped of secrets by name). */
  details?: (request: FastifyRequest) => Record<string, unknown>;
  /**
   * Sign-ins: recorded when they fail too, as `<action>.failed`, the actor being the name given.
   * "session": recorded when done only once a session was issued (a password whose one-time code
   * is still to come is not a sign-in yet; /auth/otp records it).
   */
  signIn?: "session" | "token";
  /**
   * What the change replaces, read before it is made and kept as `details.before` (under the
   * same keys as the details), so that the log can say "before → after". Done changes only.
   */
  before?: (request: FastifyRequest, read: BeforeReads) => Promise<Record<string, unknown> | undefined>;
  /** Not recorded: what the web app does by itself, not a change anyone made. */
  skip?: true;
  /**
   * `details` hold names only (which variables) or the route's own constants (which sign-in method),
   * never a value the caller sent: kept for a refused attempt too.
   * Any other refused attempt keeps only the names of the fields it sent (activity-hook.ts).
   */
  namesOnly?: true;
}

const params = (request: FastifyRequest) => request.params as Record<string, string>;
const body = (request: FastifyRequest) => request.body as Record<string, unknown> | undefined;
const folderMade = (request: FastifyRequest) =>
  (request.query as Record<string, unknown>)?.folder !== undefined ? "file.mkdir" : "file.write";
const variableNames = (request: FastifyRequest) => ({
  variables: Object.keys(dataValues(body(request) ?? {})).sort(),
});
/** A setting's value, under its name; a setting defined secret (settings.ts) is never kept, whatever its name. */
const settingShown = (key: string, value: unknown) =>
  value !== undefined && secretSettingKeys.includes(key) ? redacted : value;
const settingValue = (request: FastifyRequest) => ({
  [params(request).key]: settingShown(params(request).key, body(request)?.value),
});
const settingValues = (request: FastifyRequest) =>
  Object.fromEntries(
    Object.entries(body(request) ?? {}).map(([key, value]) => [key, settingShown(key, value)]),
  );

/** `{ [key]: value }` for a value there was, else nothing. */
const kept = (key: string, value: unknown) => (value === undefined ? undefined : { [key]: value });

const hostDetails = (request: FastifyRequest) => {
  const { name, type, host, port, username } = body(request) ?? {};
  return { name, type, host, port, username };
};

/** What tells providers apart; the client secret is left out (it is stripped by name too). */
const providerDetails = (request: FastifyRequest) => {
  const { name, issuer, clientId, createAccounts, allowedDomains, trustUnverifiedEmail, roleClaim, enabled } =
    body(request) ?? {};
  return { name, issuer, clientId, createAccounts, allowedDomains, trustUnverifiedEmail, roleClaim, enabled };
};

export const activityActions: Record<string, ActionRule> = {
  "POST /api/oidc-providers": { action: "oidcProvider.create", details: providerDetails },
  "PUT /api/oidc-providers/:id": { action: "oidcProvider.update", details: providerDetails },
  "DELETE /api/oidc-providers/:id": { action: "oidcProvider.delete" },
  // The name signed in with is the actor; the body holds nothing else worth keeping.
  "POST /auth/login": { action: "auth.login", signIn: "session", details: () => ({}) },
  // The one-time code completes a sign-in: the same action, so one filter finds every sign-in.
  "POST /auth/otp": {
    action: "auth.login",
    signIn: "session",
    details: () => ({ otp: true }),
    namesOnly: true,
  },
  // A passkey alone, or as the second step: a sign-in like the others, told apart by its details.
  "POST /auth/passkey": {
    action: "auth.login",
    signIn: "session",
    details: () => ({ method: "passkey" }),
    namesOnly: true,
  },
  // A challenge to sign with: nothing changes until it comes back signed.
  "POST /auth/passkey/options": { action: "auth.passkey.options", skip: true },
  "POST /auth/register": { action: "auth.register", signIn: "session", details: () => ({}) },
  "POST /auth/invite": { action: "auth.invite", signIn: "session", details: () => ({}) },
  // The web app renews its session every few minutes: one entry each would bury the rest.
  "POST /auth/reauth": { action: "auth.reauth", skip: true },
  "POST /auth/logout": { action: "auth.logout" },
  // A node asking whether an SFTP password is good: the node records that sign-in itself, with
  // the SFTP client's address (the local node's too, which asks in-process).
  "POST /oauth2/token": {
    action: (r) =>
      body(r)?.grant_type === "password" || body(r)?.grant_type === sftpKeyGrant ? undefined : "auth.token",
    signIn: "token",
  },

  "PUT /api/self": { action: "self.edit" },
  "PUT /api/userSettings/:key": { action: "self.setting", details: settingValue },
  "POST /api/self/oauth2": { action: "self.client.create" },
  "DELETE /api/self/oauth2/:clientId": { action: "self.client.delete" },
  "POST /api/self/otp": { action: "self.otp.start" },
  // Its name only: the key is long, and its fingerprint is in the list of keys.
  "POST /api/self/ssh-keys": { action: "self.sshKey.create", details: (r) => ({ name: body(r)?.name }) },
  "DELETE /api/self/ssh-keys/:id": { action: "self.sshKey.delete" },
  // The provider's sign-in page is next; the link itself is recorded by the callback (oidc.ts).
  "POST /api/self/oidc-links/:id": { action: "self.oidc.link.start" },
  "DELETE /api/self/oidc-links/:id": { action: "self.oidc.unlink" },
  "POST /api/self/passkeys/options": { action: "self.passkey.options", skip: true },
  // The name only: the browser's answer is long and holds nothing a reader needs.
  "POST /api/self/passkeys": { action: "self.passkey.create", details: (r) => ({ name: body(r)?.name }) },
  "PUT /api/self/passkeys/:id": { action: "self.passkey.rename" },
  "DELETE /api/self/passkeys/:id": { action: "self.passkey.delete" },
  "PUT /api/self/otp": { action: "self.otp.enable" },
  "DELETE /api/self/otp/:token": { action: "self.otp.disable" },
  "POST /api/self/otp/recovery": { action: "self.otp.recovery" },
  // Alert channels: the webhook URL and push subscription are marked secret in the schema.
  "POST /api/self/notifications": { action: "self.notification.create" },
  "DELETE /api/self/notifications": { action: "self.notification.deleteAll" },
  "DELETE /api/self/notifications/:id": { action: "self.notification.delete" },
  "POST /api/self/notifications/:id/test": { action: "self.notification.test" },

  "PUT /api/settings/:key": {
    action: "settings.edit",
    details: settingValue,
    before: async (r, read) =>
      kept(params(r).key, settingShown(params(r).key, await read.setting(params(r).key))),
  },
  "POST /api/settings": { action: "settings.edit", details: settingValues },
  "POST /api/settings/test/email": { action: "settings.email.test" },

  "POST /api/users": { action: "user.create" },
  "POST /api/users/:id": {
    action: "user.edit",
    // The name and address it had, for the fields the edit sets (never the password).
    before: async (r, read) => {
      const user = await read.user(Number(params(r).id));
      const sent = body(r) ?? {};
      if (!user) return undefined;
      return Object.fromEntries(
        (["username", "email"] as const).filter((k) => k in sent).map((k) => [k, user[k]]),
      );
    },
  },
  "DELETE /api/users/:id": { action: "user.delete" },
  "PUT /api/users/:id/perms": {
    action: "user.perms",
    before: async (r, read) => kept("scopes", await read.userScopes(Number(params(r).id))),
  },

  "POST /api/nodes": { action: "node.create" },
  "PUT /api/nodes/:id": { action: "node.edit" },
  "DELETE /api/nodes/:id": { action: "node.delete" },

  // Fetches a file for the import dialog; nothing is saved, but the address fetched is worth knowing.
  "POST /api/templates/import": { action: "template.import.fetch" },
  "POST /api/templates": { action: "template.repo.create" },
  "PUT /api/templates/:repo": { action: "template.repo.edit" },
  "DELETE /api/templates/:repo": { action: "template.repo.delete" },
  "PUT /api/templates/:repo/:name": { action: "template.edit", details: () => ({}) },
  "DELETE /api/templates/:repo/:name": { action: "template.delete" },

  "PUT /api/servers/:id": { action: "server.create", details: (r) => ({ name: body(r)?.name }) },
  "DELETE /api/servers/:id": { action: "server.delete" },
  "PUT /api/servers/:id/name/:name": {
    action: "server.rename",
    details: (r) => ({ name: params(r).name }),
    before: async (r, read) => kept("name", await read.serverName(params(r).id)),
  },
  "PUT /api/servers/:id/definition": { action: "server.definition", details: () => ({}) },
  // Which variables, never their values: a hidden (admin-only) variable's value is a licence key or
  // a game server token whatever its name, and a refused attempt holds what was tried.
  "POST /api/servers/:id/data": { action: "server.data", details: variableNames, namesOnly: true },
  "PUT /api/servers/:id/data": { action: "server.data", details: variableNames, namesOnly: true },
  "POST /api/servers/:id/flags": { action: "server.flags" },
  "POST /api/servers/:id/start": { action: "server.start" },
  "POST /api/servers/:id/stop": { action: "server.stop" },
  "POST /api/servers/:id/kill": { action: "server.kill" },
  "POST /api/servers/:id/transfer": { action: "server.transfer" },
  // Database hosts: the body holds the host's password, so only what identifies the host is kept.
  "POST /api/database-hosts": { action: "databasehost.create", details: (r) => hostDetails(r) },
  "PUT /api/database-hosts/:id": { action: "databasehost.edit", details: (r) => hostDetails(r) },
  "DELETE /api/database-hosts/:id": { action: "databasehost.delete" },
  "POST /api/permission-presets": { action: "preset.create" },
  "PUT /api/permission-presets/:id": { action: "preset.edit" },
  "DELETE /api/permission-presets/:id": { action: "preset.delete" },
  "POST /api/roles": { action: "role.create" },
  "PUT /api/roles/:id": { action: "role.edit" },
  "DELETE /api/roles/:id": { action: "role.delete" },
  "PUT /api/users/:id/roles": { action: "user.roles" },
  "POST /api/database-hosts/:id/test": { action: "databasehost.test" },
  "POST /api/servers/:id/databases": {
    action: "database.create",
    details: (r) => ({ host: body(r)?.host, name: body(r)?.name }),
  },
  "DELETE /api/servers/:id/databases/:dbId": { action: "database.delete" },
  "POST /api/servers/:id/databases/:dbId/rotate-password": { action: "database.rotate" },
  // Who was kicked, banned or whitelisted, and why: the values as sent (a refused one too).
  "POST /api/servers/:id/players/:action": {
    // Named one by one (not `player.${action}`), so the activity page's labels can be checked.
    action: (r) =>
      ({
        kick: "player.kick",
        ban: "player.ban",
        unban: "player.unban",
        whitelistAdd: "player.whitelistAdd",
        whitelistRemove: "player.whitelistRemove",
        op: "player.op",
        deop: "player.deop",
        say: "player.say",
      })[params(r).action] ?? "player.unknown",
    details: (r) => {
      const { player, reason, message } = body(r) ?? {};
      return { player, reason, message };
    },
  },
  // Port allocations (issue 36): the ports asked for, and which allocation went or became primary.
  "POST /api/nodes/:id/allocations": {
    action: "node.allocations.add",
    details: (r) => ({ ip: body(r)?.ip, ports: body(r)?.ports, alias: body(r)?.alias }),
  },
  "DELETE /api/nodes/:id/allocations/:allocationId": { action: "node.allocations.delete" },
  "POST /api/servers/:id/allocations": { action: "server.allocation.add" },
  "DELETE /api/servers/:id/allocations/:allocationId": { action: "server.allocation.delete" },
  "PUT /api/servers/:id/allocations/:allocationId/primary": { action: "server.allocation.primary" },
  // The version asked for; the files it placed (its dependencies too) are in the node's answer.
  "POST /api/servers/:id/mods": {
    action: "mod.install",
    details: (r) => ({
      source: body(r)?.source,
      projectId: body(r)?.projectId,
      versionId: body(r)?.versionId,
    }),
  },
  "DELETE /api/servers/:id/mods/:file": { action: "mod.remove", details: (r) => ({ file: params(r).file }) },
  "PUT /api/servers/:id/limits": { action: "server.limits", details: (r) => ({ ...body(r) }) },
  "POST /api/servers/:id/install": { action: "server.install" },
  "POST /api/servers/:id/reload": { action: "server.reload" },
  // The command as typed: what an operator most wants to know of a console.
  "POST /api/servers/:id/console": {
    action: "server.console",
    details: (r) => ({ command: String(r.body ?? "").replace(/\r?\n$/, "") }),
  },

  // A user new to the server had no scopes there: no before.
  "PUT /api/servers/:id/user/:email": {
    action: "server.user.edit",
    before: async (r, read) => kept("scopes", await read.serverUserScopes(params(r).id, params(r).email)),
  },
  "DELETE /api/servers/:id/user/:email": { action: "server.user.delete" },
  "POST /api/servers/:id/oauth2": { action: "server.client.create" },
  "DELETE /api/servers/:id/oauth2/:clientId": { action: "server.client.delete" },

  // A task's name, not its steps: they may hold a download's password or a file's text.
  "POST /api/servers/:id/tasks": { action: "task.create", details: (r) => ({ name: body(r)?.name }) },
  "PUT /api/servers/:id/tasks": { action: "task.settings" },
  "PUT /api/servers/:id/tasks/:taskId": { action: "task.edit", details: (r) => ({ name: body(r)?.name }) },
  "DELETE /api/servers/:id/tasks/:taskId": { action: "task.delete" },
  "POST /api/servers/:id/tasks/:taskId/run": { action: "task.run" },

  "POST /api/servers/:id/backup/create": { action: "backup.create" },
  "POST /api/servers/:id/backup/restore/:backupId": { action: "backup.restore" },
  "DELETE /api/servers/:id/backup/:backupId": { action: "backup.delete" },
  "POST /api/servers/:id/backup/:backupId/verify": { action: "backup.verify" },
  "PUT /api/servers/:id/backup/:backupId": { action: "backup.pin" },
  "PUT /api/servers/:id/backup-policy": { action: "backup.policy" },

  // Uploads are streamed: their body is never read here.
  "PUT /api/servers/:id/file": { action: folderMade, details: () => ({}) },
  "PUT /api/servers/:id/file/*": { action: folderMade, details: () => ({}) },
  "DELETE /api/servers/:id/file": { action: "file.delete" },
  "DELETE /api/servers/:id/file/*": { action: "file.delete" },
  "POST /api/servers/:id/file": { action: "file.rename" },
  "POST /api/servers/:id/file/*": { action: "file.rename" },
  "POST /api/servers/:id/archive/*": { action: "file.archive" },
  "POST /api/servers/:id/extract/*": { action: "file.extract" },
};
