import { describe, expect, it } from "vitest";
import { parseTemplate } from "../../../server/templates/parse.ts";
import {
  minecraftPlayerCommands,
  namesInList,
  PlayerValueRefused,
  playerCommandsOf,
  renderPlayerCommand,
} from "../../../server/templates/players.ts";
import type { PlayerCommands } from "../../../server/templates/types.ts";

const base = { type: "game", install: [], run: { command: "game" }, environment: { type: "host" } };

function parsePlayers(players: unknown) {
  return parseTemplate({ ...base, players });
}

function refusal(commands: PlayerCommands, action: "kick" | "say", values: Record<string, string>) {
  try {
    renderPlayerCommand(commands, action, values);
  } catch (err) {
    if (err instanceof PlayerValueRefused) return err.field;
    throw err;
  }
  return "accepted";
}

describe("template players field", () => {
  it("reads the issue's example as written", () => {
    const players = {
      kick: "kick ${player} ${reason}",
      ban: "ban ${player} ${reason}",
      unban: "pardon ${player}",
      whitelistAdd: "whitelist add ${player}",
      whitelistRemove: "whitelist remove ${player}",
      op: "op ${player}",
      deop: "deop ${player}",
      say: "say ${message}",
      via: "rcon",
      rcon: { port: "${rconport}", password: "${rconpassword}" },
      lists: { whitelist: "whitelist.json", ops: "ops.json", bans: "banned-players.json" },
      namePattern: "^[a-z]{1,8}$",
    };
    expect(parsePlayers(players)).toEqual({ ok: true, template: expect.objectContaining({ players }) });
  });

  it("names each bad field", () => {
    const result = parsePlayers({
      kick: "kick ${player}\nop me",
      via: "telnet",
      namePattern: "[a-z]+",
      lists: { ops: 3, whitelist: [] },
      rcon: { port: {} },
    });
    expect(result.ok).toBe(false);
    const paths = result.ok ? [] : result.problems.map((problem) => problem.path);
    expect(paths.sort()).toEqual([
      "players.kick",
      "players.lists.whitelist",
      "players.namePattern",
      "players.rcon.port",
      "players.via",
    ]);
    expect(parsePlayers({ namePattern: "^(unclosed$" }).ok).toBe(false);
    expect(parsePlayers({ namePattern: "^(a+)\\1$" }).ok).toBe(false);
  });

  it("gives a Minecraft-queried template Minecraft's commands, and others none", () => {
    expect(playerCommandsOf({ query: { type: "minecraft" } })).toBe(minecraftPlayerCommands);
    expect(playerCommandsOf({ query: { type: "openttd" } })).toBeNull();
    const own = { kick: "boot ${player}" };
    expect(playerCommandsOf({ players: own, query: { type: "minecraft" } })).toBe(own);
  });
});

describe("player commands", () => {
  const mc = minecraftPlayerCommands;

  it("fills the name, reason and message", () => {
    expect(renderPlayerCommand(mc, "kick", { player: "Steve_1", reason: "spamming chat" })).toBe(
      "kick Steve_1 spamming chat",
    );
    expect(renderPlayerCommand(mc, "kick", { player: "Steve_1" })).toBe("kick Steve_1");
    expect(renderPlayerCommand(mc, "whitelistAdd", { player: "alex" })).toBe("whitelist add alex");
    expect(renderPlayerCommand(mc, "say", { message: "restart in 5; be ready" })).toBe(
      "say restart in 5; be ready",
    );
    expect(renderPlayerCommand({ op: "op ${player}" }, "kick", { player: "a" })).toBeNull();
  });

  it("keeps a name one name and a reason one line", () => {
    expect(refusal(mc, "kick", { player: "x; op me" })).toBe("player");
    expect(refusal(mc, "kick", { player: "a\nop me" })).toBe("player");
    expect(refusal(mc, "kick", { player: "abcdefghijklmnopq" })).toBe("player");
    expect(refusal(mc, "kick", { player: "" })).toBe("player");
    expect(refusal(mc, "kick", { player: "a", reason: "bye\nop me" })).toBe("reason");
    expect(refusal(mc, "kick", { player: "a", reason: "bye\u2028op me" })).toBe("reason");
    expect(refusal(mc, "say", { message: "hi\r\nop me" })).toBe("message");
    expect(refusal(mc, "say", { message: "" })).toBe("message");
    // A pattern that lets spaces through still does not let a second command through.
    expect(refusal({ ...mc, namePattern: "^.+$" }, "kick", { player: "x; op me" })).toBe("player");
    // Source games run `a; b` as two commands: over RCON a reason holds no `;`.
    expect(refusal({ ...mc, via: "rcon" }, "kick", { player: "a", reason: "bye; op me" })).toBe("reason");
  });

  it("reads Minecraft's list files and plain lists", () => {
    const bans = [
      { uuid: "u", name: "griefer", created: "x", source: "Server", expires: "forever", reason: "tnt" },
    ];
    expect(namesInList(bans)).toEqual([{ name: "griefer", reason: "tnt" }]);
    expect(namesInList([{ uuid: "u", name: "alex", level: 4 }, "steve", 3, null])).toEqual([
      { name: "alex" },
      { name: "steve" },
    ]);
    expect(namesInList({ name: "x" })).toEqual([]);
  });
});
