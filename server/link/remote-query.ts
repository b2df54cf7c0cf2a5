import { Type } from "typebox";
import { type NodeQuery, QueryView, queryTypeHeader } from "../contract/node/query-wire.ts";
import { ApiError } from "../errors.ts";
import type { NodeHttp } from "./node-http.ts";

/** The view, or nothing: the daemon's 204 when the game server did not answer. */
const QueryViewOrNone = Type.Union([QueryView, Type.Undefined()]);

/** The daemon bounds a query to 3 s; this leaves room for the way there and back. */
const queryCallMs = 6000;

/** A remote node's query API, through the daemon's routes under /daemon/server/{id}. */
export class RemoteQuery implements NodeQuery {
  constructor(readonly http: NodeHttp) {}

  private path(id: string): string {
    return `/daemon/server/${encodeURIComponent(id)}/query`;
  }

  async queryType(id: string): Promise<string | null> {
    try {
      const res = await this.http.stream("HEAD", this.path(id), { timeoutMs: queryCallMs });
      return res.headers.get(queryTypeHeader);
    } catch (err) {
      // A HEAD answer has no body, so a 404 cannot say more than "nothing to ask here".
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  }

  /** A 204 from the daemon (no answer) comes back from call() as undefined. */
  async query(id: string): Promise<QueryView | null> {
    const view = await this.http.call("GET", this.path(id), {
      answer: QueryViewOrNone,
      timeoutMs: queryCallMs,
    });
    return view ?? null;
  }
}
