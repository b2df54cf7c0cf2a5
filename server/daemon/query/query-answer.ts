import type { QueryAnswer } from "../../contract/node/query-wire.ts";

/** The part of a gamedig result the answer is made of (gamedig's own field names). */
export interface GamedigResult {
  name?: string;
  map?: string;
  version?: string;
  numplayers?: number;
  maxplayers?: number;
  players?: readonly { name?: string }[];
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * A gamedig result in the answer's shape. Names are the players gamedig
 * could name (unnamed slots are left out); with none, `players` is null.
 * The count is gamedig's when it has one, else the names counted.
 */
export function queryAnswer(type: string, result: GamedigResult): QueryAnswer {
  const names = (result.players ?? []).map((p) => text(p?.name)).filter((n) => n !== "");
  const answer: QueryAnswer = {
    numPlayers: count(result.numplayers) ?? names.length,
    maxPlayers: count(result.maxplayers) ?? 0,
    version: text(result.version),
    players: names.length > 0 ? names : null,
  };
  // The reference's minecraft answer has exactly the four fields above; other types say more when they can.
  if (type === "minecraft") return answer;
  const name = text(result.name);
  const map = text(result.map);
  if (name) answer.name = name;
  if (map) answer.map = map;
  return answer;
}
