// gamedig 5 ships no type declarations; this is the part of its API the query uses.
declare module "gamedig" {
  export interface QueryOptions {
    type: string;
    host: string;
    port?: number;
    /** Ask only the given port, not the type's usual query port or offsets. */
    givenPortOnly?: boolean;
    /** Accept gamedig 4 type names too (e.g. "minecraftbe"). */
    checkOldIDs?: boolean;
    socketTimeout?: number;
    attemptTimeout?: number;
    maxRetries?: number;
    requestPlayers?: boolean;
  }

  export interface QueryResult {
    name: string;
    map: string;
    password: boolean;
    version: string;
    numplayers: number;
    maxplayers: number;
    players: { name: string; raw?: unknown }[];
    bots: { name: string }[];
    queryPort: number;
    connect: string;
    ping: number;
    raw: unknown;
  }

  export class GameDig {
    constructor(runnerOptions?: { listenUdpPort?: number });
    query(options: QueryOptions): Promise<QueryResult>;
    static query(options: QueryOptions): Promise<QueryResult>;
  }

  export const games: Record<
    string,
    { name: string; options: { protocol: string }; extra?: { old_id?: string } }
  >;
  export const protocols: Record<string, unknown>;
}
