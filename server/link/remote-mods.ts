import {
  type ModFileEntry,
  ModFileList,
  type ModInstallBody,
  type NodeMods,
} from "../contract/node/mod-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** Downloads may take minutes; the node bounds each file itself. */
const installCallMs = 10 * 60_000;
/** Hashing a folder of jars reads them all. */
const listCallMs = 60_000;

/** A remote node's mods, through the daemon's routes under /daemon/server/{id}/mods. */
export class RemoteMods implements NodeMods {
  constructor(readonly http: NodeHttp) {}

  private path(id: string, query: Record<string, string> = {}): string {
    const search = new URLSearchParams(query).toString();
    return `/daemon/server/${encodeURIComponent(id)}/mods${search ? `?${search}` : ""}`;
  }

  list(id: string, folder: string): Promise<ModFileEntry[]> {
    return this.http.call("GET", this.path(id, { folder }), { answer: ModFileList, timeoutMs: listCallMs });
  }

  async install(id: string, body: ModInstallBody): Promise<void> {
    await this.http.call("POST", this.path(id), { json: body, timeoutMs: installCallMs });
  }

  async remove(id: string, folder: string, file: string): Promise<void> {
    await this.http.call("DELETE", this.path(id, { folder, file }));
  }
}
