import { type Static, Type } from "typebox";
import type { PlayerAction as Action } from "../../templates/players.ts";
import { ServerIdParams } from "./servers.ts";

/** A server's players (issue 37): who is online, the game's lists, and the actions its template offers. */

/** The template module's playerActions, spelled out for the schema (the compiler checks both agree). */
export const PlayerActionName = Type.Union([
  Type.Literal("kick"),
  Type.Literal("ban"),
  Type.Literal("unban"),
  Type.Literal("whitelistAdd"),
  Type.Literal("whitelistRemove"),
  Type.Literal("op"),
  Type.Literal("deop"),
  Type.Literal("say"),
]);
type SameActions<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const actionsAgree: SameActions<Static<typeof PlayerActionName>, Action> = true;
void actionsAgree;

const ListEntry = Type.Object({ name: Type.String(), reason: Type.Optional(Type.String()) });
/** A list the template names, as the game's file holds it; null when the template names none. */
const PlayerList = Type.Union([Type.Array(ListEntry), Type.Null()]);

export const PlayersView = Type.Object({
  /** Names online, from the query; null when the query did not answer (or names no players). */
  online: Type.Union([Type.Array(Type.String()), Type.Null()]),
  numPlayers: Type.Optional(Type.Number()),
  maxPlayers: Type.Optional(Type.Number()),
  whitelist: PlayerList,
  ops: PlayerList,
  bans: PlayerList,
  /** The actions the template has a command for; empty when it declares none. */
  actions: Type.Array(PlayerActionName),
  via: Type.Union([Type.Literal("console"), Type.Literal("rcon")]),
  /** What a name must match (JavaScript syntax, `u` flag). */
  namePattern: Type.String(),
});
export type PlayersView = Static<typeof PlayersView>;

export const PlayerActionParams = Type.Object({
  id: ServerIdParams.properties.id,
  action: PlayerActionName,
});

export const PlayerActionBody = Type.Object({
  player: Type.Optional(Type.String({ maxLength: 64 })),
  reason: Type.Optional(Type.String({ maxLength: 256 })),
  message: Type.Optional(Type.String({ maxLength: 256 })),
});
export type PlayerActionBody = Static<typeof PlayerActionBody>;
