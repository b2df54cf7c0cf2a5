import type { NodeFiles } from "../../link/file-wire.ts";
import type { ServerStore } from "../servers/server-store.ts";

/** The node's answers about a server's files; every path goes through the server's sandbox. */
export class FileOps implements NodeFiles {
  constructor(readonly store: ServerStore) {}
}
