import type { NodeHttp } from "./node-http.ts";
import type { NodeQuery } from "./query-wire.ts";

/** A remote node's query API, through the daemon's routes under /daemon/server/{id}. */
export class RemoteQuery implements NodeQuery {
  constructor(readonly http: NodeHttp) {}
}
