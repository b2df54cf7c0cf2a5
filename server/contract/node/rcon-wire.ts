import { type Static, Type } from "typebox";

/**
 * What crosses the panel↔node seam for a command sent over Source RCON (issue 37): the node
 * connects to its own game server where the template's `players.rcon` says, with the password
 * from the server's variables, so the password never travels to or from the panel.
 */

/** One command line; Source RCON bodies stay under 4 KiB. */
export const RconBody = Type.Object({ command: Type.String({ minLength: 1, maxLength: 1400 }) });
export const RconAnswer = Type.Object({ answer: Type.String() });
export type RconAnswer = Static<typeof RconAnswer>;

export interface NodeRcon {
  /** Sends one command over RCON and resolves to the game's answer (ErrRconFailed when it cannot). */
  send(id: string, command: string): Promise<string>;
}
