import type { NodeFiles } from "./file-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's files API, through the daemon's routes under /daemon/server/{id}. */
export class RemoteFiles implements NodeFiles {
  constructor(readonly http: NodeHttp) {}
}
