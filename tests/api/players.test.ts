import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DaemonProcess } from "../support/daemon-process.ts";
import { echoDefinition } from "../support/echo-template.ts";
import { expectError } from "../support/expect-api.ts";
import { fakeGameDefinition, fakeGameScript, type RconListener, rconListener } from "../support/fake-game.ts";
import { fakeMinecraft, minecraftStatus } from "../support/fake-minecraft.ts";
import { upload } from "../support/file-requests.ts";
import { setServerScopes } from "../support/panel-db.ts";
import { waitUntil } from "../support/poll.ts";
import { addRemoteNode } from "../support/remote-node.ts";
import { consoleText } from "../support/server-console.ts";
import { adminClient, type PanelClient, registeredClient, usePanel } from "../support/test-panel.ts";

interface Entry {
  action: string;
  ok: boolean;
  details: Record<string, unknown>;
}

describe("players (GET /api/servers/{id}/players, POST …/players/{action})", () => {
  const panel = usePanel();
  let api: PanelClient;
  let query: Awaited<ReturnType<typeof fakeMinecraft>>;
  let rcon: RconListener;
  let remote: { nodeId: number; daemon: DaemonProcess };
  const started: string[] = [];

  beforeAll(async () => {
    api = await adminClient(panel());
    query = await fakeMinecraft(minecraftStatus);
    rcon = await rconListener("rcon-secret");
    remote = await addRemoteNode(api, "players-host");
  });
  afterAll(async () => {
    for (const id of started) await api?.post(`/api/servers/${id}/kill`);
    await query?.close();
    await rcon?.close();
    await remote?.daemon.destroy();
  });

  /** Creates the fake game on a node, uploads its program and starts it. */
  async function startGame(id: string, node: number, over: Record<string, unknown> = {}) {
    const definition = fakeGameDefinition(over);
    definition.data.port.value = query.port;
    definition.data.rconport.value = rcon.port;
    const made = await api.put(`/api/servers/${id}`, { ...definition, name: `players ${id}`, node });
    expect(made.status, made.text).toBe(200);
    expect((await upload(api, `/api/servers/${id}/file/game.js`, fakeGameScript)).status).toBe(204);
    started.push(id);
    const res = await api.post(`/api/servers/${id}/start?wait`);
    expect(res.status, res.text).toBe(204);
    await waitUntil(async () => (await consoleText(api, id)).includes("Done ("), 15_000);
  }
  const act = (id: string, action: string, body: Record<string, unknown>, client = api) =>
    client.post(`/api/servers/${id}/players/${action}`, body);
  const players = async (id: string) => {
    const res = await api.get(`/api/servers/${id}/players`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const activity = async (id: string): Promise<Entry[]> =>
    (await api.get(`/api/servers/${id}/activity?limit=100&action=player.*`)).body.activity;

  describe.each([
    ["the local node", "0b1a", () => 0],
    ["a remote node", "0b1b", () => remote.nodeId],
  ])("on %s", (_, prefix, nodeOf) => {
    it("sends each action to the game's console, and reads its lists back from its files", async () => {
      const id = `${prefix}0001`;
      await startGame(id, nodeOf());
      const before = await players(id);
      expect(before).toMatchObject({
        online: ["Alex", "Steve"],
        numPlayers: 2,
        maxPlayers: 20,
        whitelist: [],
        ops: [],
        bans: [],
        via: "console",
        namePattern: "^[A-Za-z0-9_]{1,16}$",
      });
      expect(before.actions).toEqual([
        "kick",
        "ban",
        "unban",
        "whitelistAdd",
        "whitelistRemove",
        "op",
        "deop",
        "say",
      ]);

      expect((await act(id, "kick", { player: "Steve", reason: "spamming chat" })).status).toBe(204);
      expect((await act(id, "ban", { player: "griefer", reason: "lava everywhere" })).status).toBe(204);
      expect((await act(id, "whitelistAdd", { player: "Alex" })).status).toBe(204);
      expect((await act(id, "op", { player: "Alex" })).status).toBe(204);
      expect((await act(id, "say", { message: "restart in 5 minutes" })).status).toBe(204);
      await waitUntil(
        async () => (await consoleText(api, id)).includes("[Server] restart in 5 minutes"),
        10_000,
      );
      const console = await consoleText(api, id);
      expect(console).toContain("Kicked Steve: spamming chat");
      expect(console).toContain("Banned griefer: lava everywhere");
      expect(console).toContain("Added Alex to the whitelist");
      expect(console).toContain("Made Alex a server operator");
      expect(await players(id)).toMatchObject({
        whitelist: [{ name: "Alex" }],
        ops: [{ name: "Alex" }],
        bans: [{ name: "griefer", reason: "lava everywhere" }],
      });

      for (const [action, player] of [
        ["unban", "griefer"],
        ["whitelistRemove", "Alex"],
        ["deop", "Alex"],
      ])
        expect((await act(id, action, { player })).status).toBe(204);
      await waitUntil(
        async () => (await consoleText(api, id)).includes("Made Alex no longer a server operator"),
        10_000,
      );
      expect(await players(id)).toMatchObject({ whitelist: [], ops: [], bans: [] });
    });

    it("refuses a name or reason that would add a command, and sends nothing", async () => {
      const id = `${prefix}0001`;
      const refused = [
        await act(id, "kick", { player: "x; op me" }),
        await act(id, "kick", { player: "a\nop me" }),
        await act(id, "op", { player: "me\nop me" }),
        await act(id, "op", { player: "" }),
        await act(id, "kick", { player: "Steve", reason: "bye\nop me" }),
        await act(id, "say", { message: "hi\r\nop me" }),
      ];
      const fields = ["player", "player", "player", "player", "reason", "message"];
      for (const [i, res] of refused.entries())
        expectError(res, 400, "ErrFieldInvalid", { field: fields[i] });
      expectError(await act(id, "teleport", { player: "Steve" }), 400, "ErrFieldInvalid");
      // A marker sent after the refusals: once it shows, anything sent before it shows too.
      expect((await act(id, "say", { message: "marker" })).status).toBe(204);
      await waitUntil(async () => (await consoleText(api, id)).includes("[Server] marker"), 10_000);
      const console = await consoleText(api, id);
      expect(console).not.toContain("op me");
      expect(console).not.toContain("Made me a server operator");
      expect((await players(id)).ops).toEqual([]);
    });

    it("records each action with its player and reason", async () => {
      const entries = await activity(`${prefix}0001`);
      const kick = entries.find((e) => e.action === "player.kick" && e.ok);
      expect(kick?.details).toMatchObject({ player: "Steve", reason: "spamming chat" });
      expect(entries.filter((e) => e.action === "player.op" && e.ok).map((e) => e.details.player)).toEqual([
        "Alex",
      ]);
      for (const action of ["ban", "unban", "whitelistAdd", "whitelistRemove", "deop", "say"])
        expect(entries.some((e) => e.action === `player.${action}` && e.ok)).toBe(true);
    });

    it("sends over a real RCON connection with the password from the server's variables", async () => {
      const id = `${prefix}0002`;
      const viaRcon = { via: "rcon", rcon: { port: "${rconport}", password: "${rconpassword}" } };
      await startGame(id, nodeOf(), {
        players: { kick: "kick ${player} ${reason}", ban: "ban ${player}", ...viaRcon },
      });
      const tried = rcon.passwords.length;
      expect((await act(id, "kick", { player: "Steve", reason: "afk too long" })).status).toBe(204);
      expect(rcon.commands.at(-1)).toBe("kick Steve afk too long");
      expect(rcon.passwords.slice(tried)).toEqual(["rcon-secret"]);
      expect((await players(id)).actions).toEqual(["kick", "ban"]);

      // Source games run `a; b` as two commands: over RCON a reason holds no `;`.
      const sent = rcon.commands.length;
      expectError(await act(id, "kick", { player: "Steve", reason: "bye; op me" }), 400, "ErrFieldInvalid", {
        field: "reason",
      });
      expectError(await act(id, "kick", { player: "x; op me" }), 400, "ErrFieldInvalid", { field: "player" });
      expectError(await act(id, "op", { player: "Steve" }), 400, "ErrPlayerActionUnavailable");
      expect(rcon.commands.length).toBe(sent);

      // A wrong password: the game's refusal, in the envelope, and no command run.
      const data = await api.put(`/api/servers/${id}/data`, { data: { rconpassword: { value: "wrong" } } });
      expect(data.status, data.text).toBeLessThan(300);
      expectError(await act(id, "kick", { player: "Steve" }), 502, "ErrRconFailed", {
        reason: "wrong password",
      });
      expect(rcon.commands.length).toBe(sent);
      expect(rcon.passwords.at(-1)).toBe("wrong");
    });
  });

  it("has no actions for a template without player commands", async () => {
    const id = "0b1c0001";
    const made = await api.put(`/api/servers/${id}`, { ...echoDefinition(), name: "no players", node: 0 });
    expect(made.status, made.text).toBe(200);
    expect(await players(id)).toMatchObject({ actions: [], whitelist: null, ops: null, bans: null });
    expectError(await act(id, "kick", { player: "Steve" }), 400, "ErrPlayerActionUnavailable");
  });

  it("needs server.players.manage to act, and server.stats to look", async () => {
    const id = "0b1a0001";
    const email = "playermod@example.com";
    const user = await registeredClient(panel(), {
      username: "playermod",
      email,
      password: "a long password",
    });
    await setServerScopes(panel(), email, id, ["server.view", "server.console.send"]);
    expectError(await user.get(`/api/servers/${id}/players`), 403, "ErrMissingScope", {
      scope: "server.stats",
    });
    expectError(await act(id, "kick", { player: "Steve" }, user), 403, "ErrMissingScope", {
      scope: "server.players.manage",
    });

    await setServerScopes(panel(), email, id, ["server.view", "server.stats", "server.players.manage"]);
    expect((await user.get(`/api/servers/${id}/players`)).status).toBe(200);
    expect((await act(id, "kick", { player: "Steve", reason: "by the moderator" }, user)).status).toBe(204);
    await waitUntil(
      async () => (await consoleText(api, id)).includes("Kicked Steve: by the moderator"),
      10_000,
    );
    // On another server the grant means nothing.
    expectError(await act("0b1b0001", "kick", { player: "Steve" }, user), 403, "ErrMissingScope");
    // The refused attempts are in the log too, as failed.
    const refusals = (await activity(id)).filter((e) => !e.ok && e.action === "player.kick");
    expect(refusals.map((e) => e.details.error)).toContain("ErrMissingScope");
  });
});
