import type { GameDig } from "gamedig";
import type { GamedigResult } from "./query-answer.ts";
import type { QueryTarget } from "./query-target.ts";

type GamedigModule = typeof import("gamedig");

let loading: Promise<GamedigModule> | undefined;

/** gamedig and its HTTP client are loaded on the first query, not when the panel starts. */
function gamedig(): Promise<GamedigModule> {
  loading ??= import("gamedig");
  return loading;
}

/**
 * Whether gamedig can ask this type: a game id (gamedig 5's, or gamedig 4's
 * old id, which templates written for the older library may name) or
 * `protocol-<name>` for a bare protocol.
 */
export async function knowsQueryType(type: string): Promise<boolean> {
  const { games, protocols } = await gamedig();
  if (type.startsWith("protocol-")) return Object.hasOwn(protocols, type.slice("protocol-".length));
  return Object.hasOwn(games, type) || Object.values(games).some((game) => game.extra?.old_id === type);
}

/** Rejects when the work takes longer than `ms`; the work itself is left to end on its own timeouts. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  work.catch(() => {}); // a late failure after the timeout is nobody's to report
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Asks game servers through one gamedig runner (one UDP socket for all its queries). */
export class GamedigClient {
  private runner: GameDig | undefined;

  constructor(private readonly timeoutMs: number) {}

  async ask(target: QueryTarget): Promise<GamedigResult> {
    const { GameDig } = await gamedig();
    this.runner ??= new GameDig();
    return within(
      this.runner.query({
        type: target.type,
        host: target.host,
        port: target.port,
        givenPortOnly: target.queryPort,
        checkOldIDs: true,
        maxRetries: 1,
        // Protocols that try several sub-protocols at once (minecraft: TCP ping, GameSpy and
        // Bedrock over UDP) wait for each socket, so a socket gets half the time of the whole.
        socketTimeout: Math.floor(this.timeoutMs / 2),
        attemptTimeout: this.timeoutMs,
      }),
      this.timeoutMs,
    );
  }
}
