import type { PlayerActionBody, PlayersView } from "../contract/api/players.ts";
import { ApiError } from "../errors.ts";
import type { NodeClient } from "../link/node-client.ts";
import {
  defaultNamePattern,
  namesInList,
  type PlayerAction,
  PlayerValueRefused,
  playerActions,
  playerCommandsOf,
  renderPlayerCommand,
} from "../templates/players.ts";
import type { PlayerCommands } from "../templates/types.ts";

/** A list file larger than this is not a list of players (Minecraft's hold a few KiB). */
const listMaxBytes = 1024 * 1024;

const listKeys = ["whitelist", "ops", "bans"] as const;

const unavailable = (action: string) =>
  new ApiError(
    400,
    "ErrPlayerActionUnavailable",
    "this server's template has no command to ${action} a player",
    {
      action,
    },
  );

/**
 * A server's players (issue 37): who is online (the query), the game's own lists (read through
 * the node from the files the template names), and the template's commands, sent to the console
 * or over the node's RCON. The rules that keep a value one value are the template module's
 * (renderPlayerCommand), checked here before anything reaches the node.
 */
export class Players {
  constructor(private readonly nodeOf: (id: string) => Promise<NodeClient>) {}

  async view(id: string): Promise<PlayersView> {
    const node = await this.nodeOf(id);
    const commands = playerCommandsOf(await node.servers.definition(id));
    const [query, ...lists] = await Promise.all([
      node.query.query(id).catch(() => null),
      ...listKeys.map((key) => this.readList(node, id, commands?.lists?.[key])),
    ]);
    const answer = query ? Object.values(query)[0] : undefined;
    return {
      online: answer?.players ?? null,
      ...(answer ? { numPlayers: answer.numPlayers, maxPlayers: answer.maxPlayers } : {}),
      whitelist: lists[0],
      ops: lists[1],
      bans: lists[2],
      actions: commands ? playerActions.filter((action) => commands[action]) : [],
      via: commands?.via ?? "console",
      namePattern: commands?.namePattern ?? defaultNamePattern,
    };
  }

  /** Renders the action's command and sends it: one console line, or one RCON command. */
  async act(id: string, action: PlayerAction, values: PlayerActionBody): Promise<void> {
    const node = await this.nodeOf(id);
    const commands = playerCommandsOf(await node.servers.definition(id));
    const line = commands && render(commands, action, values);
    if (!commands || !line) throw unavailable(action);
    if (commands.via === "rcon") await node.rcon.send(id, line);
    else await node.servers.sendConsole(id, line);
  }

  /** The names in a list file; an absent or unreadable file is an empty list, no file named is null. */
  private async readList(node: NodeClient, id: string, file: string | undefined) {
    if (!file) return null;
    try {
      const read = await node.files.read(id, file);
      if (read.kind !== "file") return [];
      if (read.size > listMaxBytes) {
        read.body.destroy();
        return [];
      }
      const chunks: Buffer[] = [];
      for await (const chunk of read.body) chunks.push(Buffer.from(chunk));
      return namesInList(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    } catch (err) {
      if (err instanceof SyntaxError || (err instanceof ApiError && err.status === 404)) return [];
      throw err;
    }
  }
}

function render(commands: PlayerCommands, action: PlayerAction, values: PlayerActionBody): string | null {
  try {
    return renderPlayerCommand(commands, action, values);
  } catch (err) {
    if (!(err instanceof PlayerValueRefused)) throw err;
    throw new ApiError(400, "ErrFieldInvalid", "${field} is not valid", {
      field: err.field,
      problem: err.problem,
    });
  }
}
