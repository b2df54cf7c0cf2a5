import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LaravelEncrypter } from "../../../server/panel/import/laravel-encrypter.ts";
import { mapPermissions, permissionTable } from "../../../server/panel/import/permission-map.ts";
import { taskOfSchedule } from "../../../server/panel/import/task-map.ts";
import { appKey, laravelEncrypt } from "../../support/panel-source.ts";

describe("the import's pure parts (issue 40)", () => {
  it("decrypts Laravel's encrypt() (PHP-serialized) and encryptString(), and refuses another key", () => {
    const encrypter = new LaravelEncrypter(appKey);
    expect(encrypter.decrypt(laravelEncrypt(appKey, "JBSWY3DPEHPK3PXP"))).toBe("JBSWY3DPEHPK3PXP");
    expect(encrypter.decrypt(laravelEncrypt(appKey, 'pa"ss; s:3:"x";', true))).toBe('pa"ss; s:3:"x";');
    expect(encrypter.decrypt(laravelEncrypt(appKey, "not serialized", false))).toBe("not serialized");
    const other = `base64:${Buffer.alloc(32, 9).toString("base64")}`;
    expect(() => new LaravelEncrypter(other).decrypt(laravelEncrypt(appKey, "x"))).toThrow(/MAC is invalid/);
    expect(() => new LaravelEncrypter("base64:c2hvcnQ=")).toThrow(/AES-256/);
  });

  it("maps permissions to scopes only when all they need is held, and reports the rest", () => {
    const some = mapPermissions(["websocket.connect", "file.read", "control.restart", "control.stop"]);
    expect(some.scopes).toEqual([
      "server.view",
      "server.status",
      "server.stats",
      "server.console",
      "server.stop",
      "server.kill",
    ]);
    expect(some.unmatched).toEqual([
      "file.read (our scope also needs file.read-content, file.sftp, file.create, file.update, file.delete)",
      "control.restart (no equivalent here)",
    ]);
    // A scope this panel does not have yet is never given, and says so.
    const noAllocations = mapPermissions(["allocation.read"], (scope) => scope !== "server.allocations.view");
    expect(noAllocations).toEqual({
      scopes: ["server.view"],
      unmatched: ["allocation.read (this panel has no such scope yet)"],
    });
    // Every permission of the table at once gives every scope of the table.
    const all = mapPermissions(
      permissionTable.flatMap((row) => row.needs),
      () => true,
    );
    expect(all.scopes).toEqual(permissionTable.map((row) => row.scope));
    expect(all.unmatched).toEqual([]);
  });

  it("the moving guide's table is the code's", () => {
    const readme = fs.readFileSync(
      path.resolve(import.meta.dirname, "../../../docs/moving-from-pterodactyl.md"),
      "utf8",
    );
    const rows = [...readme.matchAll(/^\| `(server\.[a-z.]+)` \| (.*) \|$/gm)].map(([, scope, needs]) => ({
      scope,
      needs: [...(needs as string).matchAll(/`([a-z._-]+)`/g)].map((m) => m[1]),
    }));
    expect(rows).toEqual(permissionTable.map((row) => ({ scope: row.scope, needs: [...row.needs] })));
  });

  it("turns a schedule into one task: cron kept, offsets as sleeps, what has no match noted", () => {
    const { task, notes } = taskOfSchedule({
      id: 4,
      serverId: 1,
      name: "backup at night",
      cron: "30 2 * * 1-5",
      active: false,
      onlyWhenOnline: true,
      tasks: [
        { sequence: 1, action: "command", payload: "save-all", offset: 0, continueOnFailure: false },
        { sequence: 2, action: "backup", payload: "logs/*", offset: 10, continueOnFailure: true },
        { sequence: 3, action: "power", payload: "sideways", offset: 0, continueOnFailure: false },
      ],
    });
    expect(task).toEqual({
      name: "backup at night",
      enabled: false,
      cronSchedule: "30 2 * * 1-5",
      operations: [
        { type: "console", message: "save-all" },
        { type: "sleep", duration: "10s" },
        { type: "backup" },
      ],
    });
    expect(notes).toEqual([
      "task 2: the backup's ignored files are not kept",
      'task 2: "continue on failure" is not kept',
      'task 3: "power sideways" has no equivalent, left out',
      '"only when online" is not kept: a console step fails while the server is off',
    ]);
  });
});
