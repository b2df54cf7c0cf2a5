import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-api.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { openServerSocket } from "../support/socket-client.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

/**
 * Issue 22, point 2: a server user who may only edit the server's variables and start it sets
 * every user-editable variable of every starter template to a hostile value. Each is either
 * refused with a 400 naming the variable, or reaches the process as the one argument it was:
 * never more arguments, an option, another program, a path out of the folder or a second
 * console line.
 */

type Variables = Record<string, { value: unknown; userEdit?: boolean }>;

const player = { username: "values-player", email: "values-player@example.com", password: "player-pass-1" };

/** A program that prints each of its arguments on its own line and a last line, then waits for a console line. */
const printArgs = `#!/bin/sh\nfor a in "$@"; do printf 'ARG[%s]\\n' "$a"; done\necho ARGS-END\nread line\n`;

describe("a server user's variable values stay values (every starter template)", () => {
  const panel = usePanel();
  let admin: PanelClient;
  let user: PanelClient;
  const created: string[] = [];

  /**
   * The starter template as the wizard sends it, created by the administrator with the user on it.
   * `withoutInstall` leaves out the install steps (they download the game) so that the server may
   * start at once: its variables and run section are the starter's.
   */
  async function create(id: string, name: string, withoutInstall = false): Promise<Variables> {
    const template = await admin.get(`/api/templates/-1/${name}`);
    expect(template.status, template.text).toBe(200);
    const { readme: _readme, name: _name, ...definition } = template.body;
    if (withoutInstall) definition.install = [];
    const made = await admin.put(`/api/servers/${id}`, { ...definition, name: `values ${name}`, node: 0 });
    expect(made.status, made.text).toBe(200);
    created.push(id);
    await setServerScopes(panel(), player.email, id, ["server.data.edit", "server.start"]);
    return definition.data as Variables;
  }

  const setData = (id: string, values: Record<string, unknown>) =>
    user.post(`/api/servers/${id}/data`, {
      data: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
    });

  /** Puts a program that prints its arguments where the template's command looks for it. */
  function fakeProgram(id: string, relative: string): void {
    const file = path.join(panel().dataDir, "node", "servers", id, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, printArgs, { mode: 0o755 });
  }

  /** Starts as the user and answers the arguments the program printed. */
  async function startedArgs(id: string): Promise<string[]> {
    const socket = await openServerSocket(admin, id);
    try {
      const started = await user.post(`/api/servers/${id}/start?wait`);
      expect(started.status, started.text).toBe(204);
      // The program says when it has printed them all.
      await waitUntil(async () => socket.consoleText().includes("ARGS-END"), 10_000, 50);
      return [...socket.consoleText().matchAll(/ARG\[([^\]\n]*)\]/g)].map((match) => match[1]);
    } finally {
      await admin.post(`/api/servers/${id}/kill`);
      socket.close();
    }
  }

  beforeAll(async () => {
    admin = await adminClient(panel());
    user = await registeredClient(panel(), player);
  });
  afterAll(async () => {
    for (const id of created) await admin?.post(`/api/servers/${id}/kill`);
  });

  it("refuses values of the wrong type, outside their options or with a line break, naming the variable", async () => {
    const ids = { terraria: "0a220001", factorio: "0a220002", openttd: "0a220003", minecraft: "0a220004" };
    const data = {
      terraria: await create(ids.terraria, "terraria"),
      factorio: await create(ids.factorio, "factorio"),
      openttd: await create(ids.openttd, "openttd"),
      minecraft: await create(ids.minecraft, "minecraft-java"),
    };
    const hostile: [keyof typeof ids, string, unknown][] = [
      ["terraria", "maxplayers", "8 -steam"],
      ["terraria", "worldsize", "2 -autocreate 3"],
      ["terraria", "worldname", "World\nworldpath=/etc"],
      ["terraria", "password", "x\rport=22"],
      ["terraria", "version", "1449\n"],
      ["factorio", "save", "saves/world.zip\n--console-log=/tmp/x"],
      ["factorio", "version", "stable\u001b[2J"],
      ["openttd", "servername", "x\n[network]\nserver_admin_password=p"],
      ["openttd", "maxclients", "10; id"],
      ["openttd", "mapsize", "8 -g /etc/passwd"],
      ["openttd", "public", "public -x"],
      ["minecraft", "memory", "2048 -XX:OnOutOfMemoryError=id"],
      ["minecraft", "eula", "true -x"],
      ["minecraft", "version", "latest\nstop"],
    ];
    for (const [server, name, value] of hostile) {
      expect(data[server][name].userEdit, `${server}.${name} is user-editable`).toBe(true);
      expectError(await setData(ids[server], { [name]: value }), 400, "ErrVariableInvalid", { field: name });
    }
    // Every user-editable variable of these four templates is in the list above.
    for (const server of Object.keys(ids) as (keyof typeof ids)[]) {
      const editable = Object.keys(data[server]).filter((name) => data[server][name].userEdit);
      const tried = hostile.filter(([s]) => s === server).map(([, name]) => name);
      expect(editable.filter((name) => !tried.includes(name))).toEqual([]);
    }
    // Values that fit their variable are taken (as their type: "12" is the integer 12).
    expect((await setData(ids.openttd, { maxclients: "12", mapsize: "9" })).status).toBe(204);
    const stored = await admin.get(`/api/servers/${ids.openttd}/data`);
    expect(stored.body.data.maxclients.value).toBe(12);
  });

  it("Factorio: a save name is one argument, never an option, an absolute path or a way up", async () => {
    const id = "0a220005";
    await create(id, "factorio", true);
    fakeProgram(id, "factorio/bin/x64/factorio");
    const save = "saves/my world.zip --server-settings x; $(id) `id` 'q' \"d\"";
    expect((await setData(id, { save })).status).toBe(204);
    const args = await startedArgs(id);
    expect(args).toEqual([
      "--bind",
      "0.0.0.0",
      "--port",
      "34197",
      "--start-server",
      save,
      "--server-settings",
      "factorio/data/server-settings.json",
    ]);
    for (const [value, why] of [
      ["--console-log=/tmp/x", /option/],
      ["/etc/shadow", /absolute/],
      ["../../../etc/shadow", /\.\./],
    ] as const) {
      expect((await setData(id, { save: value })).status).toBe(204);
      const refused = await user.post(`/api/servers/${id}/start?wait`);
      expectError(refused, 400, "ErrVariableInvalid", { field: "save" });
      expect(refused.body.error.metadata.problem).toMatch(why);
    }
  });

  it("Terraria: the version cannot choose the program, add arguments or climb out of the folder", async () => {
    const id = "0a220006";
    await create(id, "terraria", true);
    fakeProgram(id, "1449/Linux/TerrariaServer.bin.x86_64");
    expect((await setData(id, { worldname: "My World; rm -rf ~", password: "p w" })).status).toBe(204);
    expect(await startedArgs(id)).toEqual(["-config", "serverconfig.txt"]);
    for (const version of ["1449 -steam", "../../../../usr/bin", "1449/../../x"]) {
      expect((await setData(id, { version })).status).toBe(204);
      expectError(await user.post(`/api/servers/${id}/start?wait`), 400, "ErrVariableInvalid", {
        field: "version",
      });
    }
    // The world name becomes a path in the config file the server reads.
    expect((await setData(id, { version: "1449", worldname: "../../../../tmp/w" })).status).toBe(204);
    expectError(await user.post(`/api/servers/${id}/start?wait`), 400, "ErrVariableInvalid", {
      field: "worldname",
    });
  });

  it("Custom command: the command is not the user's to change, the stop text stays one line", async () => {
    const id = "0a220007";
    const data = await create(id, "custom-command");
    expect(data.command.userEdit).toBe(false);
    expectError(await setData(id, { command: "python3" }), 403, "ErrVariableNotEditable", {
      field: "command",
    });
    expectError(await setData(id, { stop: "stop\nop attacker" }), 400, "ErrVariableInvalid", {
      field: "stop",
    });
    expect((await setData(id, { folder: "../../.." })).status).toBe(204);
    expectError(await user.post(`/api/servers/${id}/start?wait`), 400, "ErrVariableInvalid", {
      field: "folder",
    });
  });
});
