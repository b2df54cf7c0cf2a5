import type { PlayerActionBody, PlayersView } from "../../server/contract/api/players";
import type { PlayerAction } from "../../server/templates/players";
import { type CallOptions, get, post } from "./client";

// A server's players (issue 37): who is online, the game's lists, and the template's actions.

export type { PlayerAction, PlayersView };

const base = (id: string) => `/api/servers/${encodeURIComponent(id)}/players`;

export const getPlayers = (id: string, opts?: CallOptions) => get<PlayersView>(base(id), opts);
export const playerAction = (id: string, action: PlayerAction, body: PlayerActionBody) =>
  post<void>(`${base(id)}/${action}`, body);
