import type { NodeQuery } from "../../link/query-wire.ts";
import type { ServerStore } from "../servers/server-store.ts";

/** Asks a running game server how many players it has, with the protocol its template names. */
export class QueryOps implements NodeQuery {
  constructor(readonly store: ServerStore) {}
}
