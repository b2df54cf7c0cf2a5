import { isServerScope } from "../scopes.ts";

/**
 * A Pterodactyl or Pelican subuser's permissions as Outpost server scopes (the table in the
 * README, "Moving from Pterodactyl or Pelican"). A scope is given only when the permissions held
 * there grant at least as much as the scope does here, so nobody gains a right in the move: where
 * one of our scopes covers several of theirs, all of them are needed. What has no match (or a
 * scope this panel does not have yet) is reported, never widened.
 */
export const permissionTable: readonly { scope: string; needs: readonly string[] }[] = [
  { scope: "server.view", needs: [] },
  { scope: "server.status", needs: ["websocket.connect"] },
  { scope: "server.stats", needs: ["websocket.connect"] },
  { scope: "server.console", needs: ["websocket.connect"] },
  { scope: "server.console.send", needs: ["websocket.connect", "control.console"] },
  { scope: "server.start", needs: ["control.start"] },
  // Their stop permission also kills the server.
  { scope: "server.stop", needs: ["control.stop"] },
  { scope: "server.kill", needs: ["control.stop"] },
  { scope: "server.users.view", needs: ["user.read"] },
  { scope: "server.users.create", needs: ["user.create"] },
  { scope: "server.users.edit", needs: ["user.update"] },
  { scope: "server.users.delete", needs: ["user.delete"] },
  // Our file viewing reads the contents too; our editing creates, changes, removes and archives.
  { scope: "server.files.view", needs: ["file.read", "file.read-content"] },
  { scope: "server.files.edit", needs: ["file.create", "file.update", "file.delete", "file.archive"] },
  // SFTP here reads and writes whatever the files scopes allow there.
  {
    scope: "server.sftp",
    needs: ["file.sftp", "file.read", "file.read-content", "file.create", "file.update", "file.delete"],
  },
  // Our backup list also downloads.
  { scope: "server.backup.view", needs: ["backup.read", "backup.download"] },
  { scope: "server.backup.create", needs: ["backup.create"] },
  { scope: "server.backup.restore", needs: ["backup.restore"] },
  { scope: "server.backup.delete", needs: ["backup.delete"] },
  { scope: "server.allocations.view", needs: ["allocation.read"] },
  {
    scope: "server.allocations.edit",
    needs: ["allocation.create", "allocation.update", "allocation.delete"],
  },
  { scope: "server.data.view", needs: ["startup.read"] },
  { scope: "server.data.edit", needs: ["startup.update"] },
  { scope: "server.databases.view", needs: ["database.read"] },
  { scope: "server.databases.view.password", needs: ["database.read", "database.view_password"] },
  { scope: "server.databases.create", needs: ["database.create"] },
  { scope: "server.databases.delete", needs: ["database.delete"] },
  { scope: "server.databases.rotate", needs: ["database.update"] },
  { scope: "server.tasks.view", needs: ["schedule.read"] },
  { scope: "server.tasks.create", needs: ["schedule.create"] },
  // Running a schedule now is part of updating it there.
  { scope: "server.tasks.edit", needs: ["schedule.update"] },
  { scope: "server.tasks.run", needs: ["schedule.update"] },
  { scope: "server.tasks.delete", needs: ["schedule.delete"] },
  { scope: "server.name.edit", needs: ["settings.rename"] },
  { scope: "server.install", needs: ["settings.reinstall"] },
  { scope: "server.activity.view", needs: ["activity.read"] },
];

export interface MappedPermissions {
  scopes: string[];
  /** Their permissions that gave no scope here, each with why. */
  unmatched: string[];
}

export function mapPermissions(held: readonly string[], knownScope = isServerScope): MappedPermissions {
  const have = new Set(held);
  const scopes: string[] = [];
  const used = new Set<string>();
  const missingScope = new Set<string>();
  for (const row of permissionTable) {
    if (!row.needs.every((p) => have.has(p))) continue;
    if (!knownScope(row.scope)) {
      for (const p of row.needs) missingScope.add(p);
      continue;
    }
    scopes.push(row.scope);
    for (const p of row.needs) used.add(p);
  }
  const unmatched = [...have]
    .filter((p) => !used.has(p))
    .map((p) =>
      missingScope.has(p)
        ? `${p} (this panel has no such scope yet)`
        : permissionTable.some((row) => row.needs.includes(p))
          ? `${p} (our scope also needs ${neededWith(p, have)})`
          : `${p} (no equivalent here)`,
    );
  return { scopes, unmatched };
}

function neededWith(permission: string, have: Set<string>): string {
  const rows = permissionTable.filter((row) => row.needs.includes(permission));
  return [...new Set(rows.flatMap((row) => row.needs.filter((p) => !have.has(p))))].join(", ");
}
