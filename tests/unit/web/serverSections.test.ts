import { describe, expect, it } from "vitest";
import { serverCan } from "../../../src/screens/servers/serverScopes";
import { serverSections, shownSections } from "../../../src/screens/servers/serverSections";

// The server view's tabs come from this table: their order is the number hotkeys' order and
// their ids are the URLs' hashes (#files), so both are pinned here.
describe("server sections table", () => {
  const ids = (scopes: string[]) => shownSections(serverCan(scopes)).map((s) => s.id);

  it("lists the sections of spec §2.3 in order, under the hashes the URLs use", () => {
    expect(serverSections.map((s) => s.id)).toEqual([
      "console",
      "settings",
      "admin",
      "users",
      "sftp",
      "files",
      "backups",
      "network",
      "databases",
      "mods",
      "tasks",
      "clients",
      "query",
      "stats",
      "activity",
    ]);
  });

  it("shows all of them to a server admin", () => {
    expect(ids(["server.admin"])).toHaveLength(serverSections.length);
  });

  it("shows each section by its scope rule", () => {
    expect(ids(["server.view"])).toEqual([]);
    expect(ids(["server.console"])).toEqual(["console"]);
    for (const scope of ["server.data.view", "server.flags.view", "server.name.edit"]) {
      expect(ids([scope])).toEqual(["settings"]);
    }
    expect(ids(["server.definition.view"])).toEqual(["admin"]);
    expect(ids(["server.delete"])).toEqual(["admin"]);
    expect(ids(["server.databases.view"])).toEqual(["databases"]);
    expect(ids(["server.allocations.view"])).toEqual(["network"]);
    expect(ids(["server.mods.view"])).toEqual(["mods"]);
    // SFTP signs in only with files.view too.
    expect(ids(["server.sftp"])).toEqual([]);
    expect(ids(["server.sftp", "server.files.view"])).toEqual(["sftp", "files"]);
    expect(ids(["server.stats"])).toEqual(["query", "stats"]);
    expect(ids(["server.tasks.view", "server.backup.view", "server.users.view"])).toEqual([
      "users",
      "backups",
      "tasks",
    ]);
    expect(ids(["server.clients.view", "server.activity.view"])).toEqual(["clients", "activity"]);
  });

  it("gives the console its own key, i, to the command line", () => {
    const own = serverSections.filter((s) => s.hotkey).map((s) => [s.id, s.hotkey?.keys]);
    expect(own).toEqual([["console", "i"]]);
  });
});
