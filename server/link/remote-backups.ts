import type { NodeBackups } from "./backup-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's backups API, through the daemon's routes under /daemon/server/{id}. */
export class RemoteBackups implements NodeBackups {
  constructor(readonly http: NodeHttp) {}
}
