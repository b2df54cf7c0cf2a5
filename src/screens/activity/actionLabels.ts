import { i18n, type MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

// Every action the activity log records (server/api/pipeline/activity-actions.ts, and what the
// nodes, tasks and SFTP record themselves), in the page's words. The exports keep the codes.
// tests/unit/web/activityActions.test.ts fails when the server can record one missing here.

const labels: Record<string, MessageDescriptor> = {
  "auth.login": msg`Signed in`,
  "auth.login.failed": msg`Sign-in failed`,
  "auth.register": msg`Registered`,
  "auth.register.failed": msg`Registration failed`,
  "auth.invite": msg`Accepted an invitation`,
  "auth.invite.failed": msg`Accepting an invitation failed`,
  "auth.logout": msg`Signed out`,
  "auth.token": msg`Got an access token`,
  "auth.token.failed": msg`Access token refused`,
  "auth.sftp": msg`Signed in over SFTP`,
  "auth.sftp.failed": msg`SFTP sign-in failed`,

  "self.edit": msg`Changed their account`,
  "self.setting": msg`Changed a personal setting`,
  "self.client.create": msg`Created an OAuth client`,
  "self.client.delete": msg`Deleted an OAuth client`,
  "self.otp.start": msg`Began setting up two-factor sign-in`,
  "self.otp.enable": msg`Turned on two-factor sign-in`,
  "self.otp.disable": msg`Turned off two-factor sign-in`,
  "self.otp.recovery": msg`Made new recovery codes`,
  "self.notification.create": msg`Added a notification channel`,
  "self.notification.delete": msg`Removed a notification channel`,
  "self.notification.deleteAll": msg`Removed every notification channel`,
  "self.notification.test": msg`Sent a test notification`,

  "settings.edit": msg`Changed panel settings`,
  "settings.email.test": msg`Sent a test e-mail`,

  "user.create": msg`Created a user`,
  "user.edit": msg`Changed a user`,
  "user.delete": msg`Deleted a user`,
  "user.perms": msg`Changed a user's permissions`,

  "node.create": msg`Added a node`,
  "node.edit": msg`Changed a node`,
  "node.delete": msg`Removed a node`,

  "template.import.fetch": msg`Fetched a template to import`,
  "template.repo.create": msg`Added a template repository`,
  "template.repo.edit": msg`Changed a template repository`,
  "template.repo.delete": msg`Removed a template repository`,
  "template.edit": msg`Saved a template`,
  "template.delete": msg`Deleted a template`,

  "server.create": msg`Created the server`,
  "server.delete": msg`Deleted the server`,
  "server.rename": msg`Renamed the server`,
  "server.definition": msg`Changed the definition`,
  "server.data": msg`Changed the server's settings`,
  "server.flags": msg`Changed start and restart options`,
  "server.limits": msg`Changed the limits`,
  "server.start": msg`Started the server`,
  "server.stop": msg`Stopped the server`,
  "server.kill": msg`Killed the server`,
  "server.install": msg`Ran the install`,
  "server.reload": msg`Reloaded the definition`,
  "server.transfer": msg`Moved the server to another node`,
  "server.console": msg`Sent a console command`,
  "server.user.edit": msg`Added a user or changed their permissions`,
  "server.user.delete": msg`Removed a user from the server`,
  "server.client.create": msg`Created an OAuth client for the server`,
  "server.client.delete": msg`Deleted an OAuth client of the server`,

  "databasehost.create": msg`Added a database host`,
  "databasehost.edit": msg`Changed a database host`,
  "databasehost.delete": msg`Removed a database host`,
  "databasehost.test": msg`Tested a database host`,
  "database.create": msg`Created a database`,
  "database.delete": msg`Deleted a database`,
  "database.rotate": msg`Changed a database password`,
  "node.allocations.add": msg`Added ports to a node`,
  "node.allocations.delete": msg`Removed a port from a node`,
  "server.allocation.add": msg`Added a port to a server`,
  "server.allocation.delete": msg`Removed a port from a server`,
  "server.allocation.primary": msg`Changed a server's primary port`,
  "preset.create": msg`Created a permission preset`,
  "preset.edit": msg`Changed a permission preset`,
  "preset.delete": msg`Deleted a permission preset`,
  "role.create": msg`Created a role`,
  "role.edit": msg`Changed a role`,
  "role.delete": msg`Deleted a role`,
  "user.roles": msg`Changed a user's roles`,
  "backup.verify": msg`Checked a backup`,
  "backup.pin": msg`Pinned or unpinned a backup`,
  "backup.policy": msg`Changed which backups are kept`,
  "mod.install": msg`Installed a mod or plugin`,
  "mod.remove": msg`Removed a mod or plugin`,
  "oidcProvider.create": msg`Added a sign-in provider`,
  "oidcProvider.update": msg`Changed a sign-in provider`,
  "oidcProvider.delete": msg`Deleted a sign-in provider`,
  "self.sshKey.create": msg`Added an SSH key`,
  "self.sshKey.delete": msg`Removed an SSH key`,
  "self.oidc.link.start": msg`Began linking a sign-in provider`,
  "self.oidc.link": msg`Linked a sign-in provider`,
  "self.oidc.unlink": msg`Unlinked a sign-in provider`,
  "self.passkey.create": msg`Added a passkey`,
  "self.passkey.rename": msg`Renamed a passkey`,
  "self.passkey.delete": msg`Removed a passkey`,
  "player.kick": msg`Kicked a player`,
  "player.ban": msg`Banned a player`,
  "player.unban": msg`Unbanned a player`,
  "player.whitelistAdd": msg`Added a player to the whitelist`,
  "player.whitelistRemove": msg`Removed a player from the whitelist`,
  "player.op": msg`Made a player an operator`,
  "player.deop": msg`Took operator rights from a player`,
  "player.say": msg`Sent a message to the players`,
  "player.unknown": msg`Asked for a player action the game does not have`,

  "task.create": msg`Created a task`,
  "task.edit": msg`Changed a task`,
  "task.delete": msg`Deleted a task`,
  "task.settings": msg`Changed the task settings`,
  "task.run": msg`Ran a task`,
  "task.disable": msg`Turned off a task`,

  "backup.create": msg`Made a backup`,
  "backup.restore": msg`Restored a backup`,
  "backup.delete": msg`Deleted a backup`,

  "file.write": msg`Wrote a file`,
  "file.mkdir": msg`Made a folder`,
  "file.delete": msg`Deleted a file`,
  "file.rename": msg`Moved or renamed a file`,
  "file.symlink": msg`Made a link`,
  "file.archive": msg`Made an archive`,
  "file.extract": msg`Extracted an archive`,

  "api.write": msg`Made another change`,
};

/** The codes labelled here: the action filter offers them by name. */
export const labelledActions = (): string[] => Object.keys(labels);

/** An action in the page's language; an action this client does not know, as its code. */
export function actionLabel(code: string): string {
  const label = labels[code];
  return label ? i18n._(label) : code;
}
