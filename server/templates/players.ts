import { assignDefined, isAbsent, readObject, readString } from "./fields.ts";
import { childPath, isObject, jsonType, type Problems } from "./problems.ts";
import { controlCharacter } from "./substitute.ts";
import type { PlayerCommands, PlayerLists, Template } from "./types.ts";

/**
 * The template's `players` (an Outpost addition): the console commands that kick, ban, whitelist
 * or op a player, how they are sent (the console, or Source RCON), where the game keeps its
 * lists and what a player's name looks like. A template without it that the Minecraft query
 * asks gets Minecraft's commands (playerCommandsOf), so the community templates need no edit.
 */

export const playerActions = [
  "kick",
  "ban",
  "unban",
  "whitelistAdd",
  "whitelistRemove",
  "op",
  "deop",
  "say",
] as const;
export type PlayerAction = (typeof playerActions)[number];

/** Minecraft's player names: 1 to 16 letters, digits or underscores. */
export const defaultNamePattern = "^[A-Za-z0-9_]{1,16}$";

const listNames = ["whitelist", "ops", "bans"] as const;

/** Minecraft Java's commands and list files (vanilla, Paper, Fabric and Forge alike). */
export const minecraftPlayerCommands: PlayerCommands = {
  kick: "kick ${player} ${reason}",
  ban: "ban ${player} ${reason}",
  unban: "pardon ${player}",
  whitelistAdd: "whitelist add ${player}",
  whitelistRemove: "whitelist remove ${player}",
  op: "op ${player}",
  deop: "deop ${player}",
  say: "say ${message}",
  via: "console",
  lists: { whitelist: "whitelist.json", ops: "ops.json", bans: "banned-players.json" },
  namePattern: defaultNamePattern,
};

export function parsePlayerCommands(
  raw: unknown,
  path: string,
  problems: Problems,
): PlayerCommands | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const at = (key: string) => childPath(path, key);
  const commands: PlayerCommands = {};
  for (const action of playerActions) {
    const text = readString(object[action], at(action), problems);
    if (text === undefined) continue;
    if (controlCharacter.test(text)) problems.push({ path: at(action), problem: "must be one line" });
    else commands[action] = text;
  }
  const via = object.via;
  if (via === "console" || via === "rcon") commands.via = via;
  else if (!isAbsent(via))
    problems.push({ path: at("via"), problem: `expected "console" or "rcon", got ${JSON.stringify(via)}` });
  const pattern = readString(object.namePattern, at("namePattern"), problems);
  if (pattern !== undefined) {
    if (patternProblem(pattern))
      problems.push({ path: at("namePattern"), problem: patternProblem(pattern) ?? "" });
    else commands.namePattern = pattern;
  }
  const lists = parseLists(object.lists, at("lists"), problems);
  if (lists) commands.lists = lists;
  const rcon = parseRcon(object.rcon, at("rcon"), problems);
  if (rcon) commands.rcon = rcon;
  return commands;
}

function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
  } catch {
    return "must be a regular expression (JavaScript syntax)";
  }
  if (!pattern.startsWith("^") || !pattern.endsWith("$")) return "must match the whole name (^…$)";
  // The process's regexp guard (server/regexp-guard.ts) bounds backtracking, but not with back-references.
  if (/\\[1-9]|\\k</.test(pattern)) return "may not use back-references";
  return undefined;
}

function parseLists(raw: unknown, path: string, problems: Problems): PlayerLists | undefined {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const lists: PlayerLists = {};
  for (const name of listNames) {
    const file = readString(object[name], childPath(path, name), problems);
    if (file !== undefined) lists[name] = file;
  }
  return lists;
}

function parseRcon(raw: unknown, path: string, problems: Problems): PlayerCommands["rcon"] {
  const object = readObject(raw, path, problems);
  if (!object) return undefined;
  const port = object.port;
  if (!isAbsent(port) && typeof port !== "string" && !(typeof port === "number" && Number.isInteger(port))) {
    problems.push({ path: childPath(path, "port"), problem: `expected a port, got ${jsonType(port)}` });
  }
  return assignDefined<NonNullable<PlayerCommands["rcon"]>>(
    {},
    {
      ip: readString(object.ip, childPath(path, "ip"), problems),
      port: typeof port === "string" || typeof port === "number" ? port : undefined,
      password: readString(object.password, childPath(path, "password"), problems),
    },
  );
}

/** The template's player commands, or Minecraft's for a template the Minecraft query asks; null: none. */
export function playerCommandsOf(template: Pick<Template, "players" | "query">): PlayerCommands | null {
  if (template.players) return template.players;
  return template.query?.type === "minecraft" ? minecraftPlayerCommands : null;
}

export interface PlayerActionValues {
  player?: string;
  reason?: string;
  message?: string;
}

/** Why a value may not go into a player command: the field and the reason, in English. */
export class PlayerValueRefused extends Error {
  constructor(
    readonly field: "player" | "reason" | "message",
    readonly problem: string,
  ) {
    super(`${field} ${problem}`);
  }
}

/**
 * The command line for an action, each value one value: the name must match the template's
 * pattern (and never holds a space, `;` or a control character, whatever the pattern says), a
 * reason or message holds no line break or control character (and no `;` over RCON, where
 * Source games run `a; b` as two commands). null: the template has no command for the action.
 */
export function renderPlayerCommand(
  commands: PlayerCommands,
  action: PlayerAction,
  values: PlayerActionValues,
): string | null {
  const text = commands[action];
  if (!text) return null;
  const filled: Record<string, string> = { player: "", reason: "", message: "" };
  if (text.includes("${player}")) filled.player = checkName(commands, values.player);
  for (const field of ["reason", "message"] as const) {
    const value = (values[field] ?? "").trim();
    if (controlCharacter.test(value))
      throw new PlayerValueRefused(field, "may not hold a line break or control character");
    if (commands.via === "rcon" && value.includes(";"))
      throw new PlayerValueRefused(field, "may not hold a ;");
    filled[field] = value;
  }
  if (action === "say" && !filled.message) throw new PlayerValueRefused("message", "is required");
  const line = text.replace(/\$\{(player|reason|message)\}/g, (_, name: string) => filled[name]);
  return line.replace(/\s+$/, "");
}

function checkName(commands: PlayerCommands, player: string | undefined): string {
  const name = player ?? "";
  if (!name) throw new PlayerValueRefused("player", "is required");
  if (/[\s;]/u.test(name) || controlCharacter.test(name)) {
    throw new PlayerValueRefused("player", "may not hold spaces, ; or control characters");
  }
  const pattern = new RegExp(commands.namePattern ?? defaultNamePattern, "u");
  if (!pattern.test(name)) throw new PlayerValueRefused("player", `must match ${pattern.source}`);
  return name;
}

/** A list file's names: Minecraft's `[{"uuid","name",…}]`, or a plain list of names. */
export function namesInList(document: unknown): { name: string; reason?: string }[] {
  if (!Array.isArray(document)) return [];
  return document.flatMap((entry) => {
    if (typeof entry === "string") return [{ name: entry }];
    if (!isObject(entry) || typeof entry.name !== "string") return [];
    return [
      typeof entry.reason === "string" ? { name: entry.name, reason: entry.reason } : { name: entry.name },
    ];
  });
}
