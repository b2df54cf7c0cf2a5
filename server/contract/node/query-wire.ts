import { type Static, Type } from "typebox";

/** Shapes that cross the panel↔node seam for the player-count query (reference §5.10). */

/**
 * One game server's answer. `players` lists names when the protocol reports
 * them and is null otherwise (the reference marshals an empty list as null).
 * `name` and `map` appear only when known, and never for `minecraft`, whose
 * answer keeps exactly the reference's four fields.
 */
export const QueryAnswer = Type.Object({
  numPlayers: Type.Number(),
  maxPlayers: Type.Number(),
  version: Type.String(),
  players: Type.Union([Type.Array(Type.String()), Type.Null()]),
  name: Type.Optional(Type.String()),
  map: Type.Optional(Type.String()),
});
export type QueryAnswer = Static<typeof QueryAnswer>;

/** The body of `GET .../query`: the answer under its query type, e.g. `{"minecraft": {…}}`. */
export const QueryView = Type.Record(Type.String(), QueryAnswer);
export type QueryView = Static<typeof QueryView>;

/** What the panel asks of a node about a server's player count. */
export interface NodeQuery {
  /** The query type the server's definition names, when this node can ask it; null otherwise. */
  queryType(id: string): Promise<string | null>;
  /**
   * Asks the running game server, bounded in time. null means no answer: not
   * running, no query type or port, or the game server did not answer.
   */
  query(id: string): Promise<QueryView | null>;
}

/** The header that names the query type in the daemon's HEAD answer (a HEAD answer has no body). */
export const queryTypeHeader = "x-outpost-query-type";
