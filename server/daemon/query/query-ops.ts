import type { NodeQuery, QueryView } from "../../contract/node/query-wire.ts";
import type { ServerStore } from "../servers/server-store.ts";
import { GamedigClient, knowsQueryType } from "./gamedig-client.ts";
import { queryAnswer } from "./query-answer.ts";
import { type QueryTarget, queryTarget, queryTypeOf } from "./query-target.ts";

/** How long an answer (or a failure to get one) is reused for every viewer of a server. */
export const queryCacheMs = 5000;
/** A game server that has not answered by then has no answer. */
export const queryTimeoutMs = 3000;

interface CachedAnswer {
  /** What was asked: a changed port or type is asked afresh. */
  key: string;
  at: number;
  answer: Promise<QueryView | null>;
}

const targetKey = (t: QueryTarget) => `${t.type} ${t.host} ${t.port} ${t.queryPort}`;

/**
 * Asks a running game server how many players it has, with the protocol its
 * template names (reference §5.10). One question per server is asked at a
 * time and its answer reused for a few seconds, so many viewers polling the
 * same server cost the game server one query.
 */
export class QueryOps implements NodeQuery {
  private readonly cache = new Map<string, CachedAnswer>();
  private readonly client = new GamedigClient(queryTimeoutMs);

  constructor(readonly store: ServerStore) {}

  async queryType(id: string): Promise<string | null> {
    const type = queryTypeOf(this.store.get(id).definition);
    return type && (await knowsQueryType(type)) ? type : null;
  }

  async query(id: string): Promise<QueryView | null> {
    const server = this.store.get(id);
    if (!server.status().running) return null;
    const target = queryTarget(server.definition);
    if (!target || !(await knowsQueryType(target.type))) return null;

    const key = targetKey(target);
    const now = Date.now();
    const cached = this.cache.get(id);
    if (cached && cached.key === key && now - cached.at < queryCacheMs) return cached.answer;

    // The game may log the question as a visitor: the console leaves that out (query-echo.ts).
    const done = server.instance.queryEcho.expect(target.type);
    const answer = this.client
      .ask(target)
      .then(
        (result): QueryView => ({ [target.type]: queryAnswer(target.type, result) }),
        () => null,
      )
      .finally(done);
    this.forgetOld(now);
    this.cache.set(id, { key, at: now, answer });
    return answer;
  }

  /** Keeps the cache to recent answers (servers come and go). */
  private forgetOld(now: number): void {
    for (const [id, cached] of this.cache) {
      if (now - cached.at >= queryCacheMs) this.cache.delete(id);
    }
  }
}
