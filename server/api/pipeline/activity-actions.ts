import type { FastifyRequest } from "fastify";
import { sftpKeyGrant } from "../../contract/node/sftp-username.ts";
import { dataValues } from "../server-data.ts";

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
  /** Not recorded: what the web app does by itself, not a change anyone made. */
  skip?: true;
}

const params = (request: FastifyRequest) => request.params as Record<string, string>;
const body = (request: FastifyRequest) => request.body as Record<string, unknown> | undefined;
const folderMade = (request: FastifyRequest) =>
  (request.query as Record<string, unknown>)?.folder !== undefined ? "file.mkdir" : "file.write";
const variableNames = (request: FastifyRequest) => ({
  variables: Object.keys(dataValues(body(request) ?? {})).sort(),
});
/** A setting's value is kept under the setting's name, so that a secret setting's value is stripped by it. */
const settingValue = (request: FastifyRequest) => ({ [params(request).key]: body(request)?.value });

const hostDetails = (request: FastifyRequest) => {
  const { name, type, host, port, username } = body(request) ?? {};
  return { name, type, host, port, username };
};

/** What tells providers apart; the client secret is left out (it is stripped by name too). */
const providerDetails = (request: FastifyRequest) => {
  const { name, issuer, clientId, createAccounts, allowedDomains, roleClaim, enabled } = body(request) ?? {};
  return { name, issuer, clientId, createAccounts, allowedDomains, roleClaim, enabled };
};

export const activityActions: Record<string, ActionRule> = {
  "POST /api/oidc-providers": { action: "oidcProvider.create", details: providerDetails },
  "PUT /api/oidc-providers/:id": { action: "oidcProvider.update", details: providerDetails },
  "DELETE /api/oidc-providers/:id": { action: "oidcProvider.delete" },
  // The name signed in with is the actor; the body holds nothing else worth keeping.
  "POST /auth/login": { action: "auth.login", signIn: "session", details: () => ({}) },
  // The one-time code completes a sign-in: the same action, so one filter finds every sign-in.
  "POST /auth/otp": { action: "auth.login", signIn: "session", details: () => ({ otp: true }) },
  // A passkey alone, or as the second step: a sign-in like the others, told apart by its details.
  "POST /auth/passkey": { action: "auth.login", signIn: "session", details: () => ({ method: "passkey" }) },
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
  // Alert channels: the kind and events only; the webhook URL and push subscription are secrets.
  "POST /api/self/notifications": {
    action: "self.notification.create",
    details: (request) => ({ type: body(request)?.type, events: body(request)?.events }),
  },
  "DELETE /api/self/notifications": { action: "self.notification.deleteAll" },
  "DELETE /api/self/notifications/:id": { action: "self.notification.delete" },

  "PUT /api/settings/:key": { action: "settings.edit", details: settingValue },
  "POST /api/settings": { action: "settings.edit" },
  "POST /api/settings/test/email": { action: "settings.email.test" },

  "POST /api/users": { action: "user.create" },
  "POST /api/users/:id": { action: "user.edit" },
  "DELETE /api/users/:id": { action: "user.delete" },
  "PUT /api/users/:id/perms": { action: "user.perms" },

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
  "PUT /api/servers/:id/name/:name": { action: "server.rename" },
  "PUT /api/servers/:id/definition": { action: "server.definition", details: () => ({}) },
  // Which variables, never their values: a hidden (admin-only) variable's value is a licence key or
  // a game server token whatever its name, and a refused attempt holds what was tried.
  "POST /api/servers/:id/data": { action: "server.data", details: variableNames },
  "PUT /api/servers/:id/data": { action: "server.data", details: variableNames },
  "POST /api/servers/:id/flags": { action: "server.flags" },
  "POST /api/servers/:id/start": { action: "server.start" },
  "POST /api/servers/:id/stop": { action: "server.stop" },
  "POST /api/servers/:id/kill": { action: "server.kill" },
  "POST /api/servers/:id/transfer": { action: "server.transfer" },
  // Database hosts: the body holds the host's password, so only what identifies the host is kept.
  "POST /api/database-hosts": { action: "databasehost.create", details: (r) => hostDetails(r) },
  "PUT /api/database-hosts/:id": { action: "databasehost.edit", details: (r) => hostDetails(r) },
  "DELETE /api/database-hosts/:id": { action: "databasehost.delete" },
  "POST /api/database-hosts/:id/test": { action: "databasehost.test" },
  "POST /api/servers/:id/databases": {
    action: "database.create",
    details: (r) => ({ host: body(r)?.host, name: body(r)?.name }),
  },
  "DELETE /api/servers/:id/databases/:dbId": { action: "database.delete" },
  "POST /api/servers/:id/databases/:dbId/rotate-password": { action: "database.rotate" },
  "PUT /api/servers/:id/limits": { action: "server.limits", details: (r) => ({ ...body(r) }) },
  "POST /api/servers/:id/install": { action: "server.install" },
  "POST /api/servers/:id/reload": { action: "server.reload" },
  // The command as typed: what an operator most wants to know of a console.
  "POST /api/servers/:id/console": {
    action: "server.console",
    details: (r) => ({ command: String(r.body ?? "").replace(/\r?\n$/, "") }),
  },

  "PUT /api/servers/:id/user/:email": { action: "server.user.edit" },
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
