import { Readable } from "node:stream";
import { FileListing, type FileRead, type NodeFiles } from "../contract/node/file-wire.ts";
import { fileBytesOf, uploadFailure } from "../http/file-http.ts";
import type { NodeHttp } from "./node-http.ts";

/** How long a node may take to delete, move or list (a large tree), before the call is given up. */
const slowCallMs = 120_000;

/**
 * A remote node's files API, through the daemon's routes under
 * /daemon/server/{id}: a thin transport, the rules are the node's FileOps.
 * File bytes are streamed both ways and never held whole; errors from the
 * node keep their status and code.
 */
export class RemoteFiles implements NodeFiles {
  constructor(readonly http: NodeHttp) {}

  /**
   * The daemon URL of a file path. The path goes as one encoded segment
   * behind a `/` (which the daemon's sandbox reads as the root), so the URL
   * parser can never see a `.` or `..` segment to resolve on its own: the
   * daemon decodes it once and gets exactly the text the panel got.
   */
  private path(id: string, area: "file" | "archive" | "extract", userPath: string, query = ""): string {
    return `/daemon/server/${encodeURIComponent(id)}/${area}/${encodeURIComponent(`/${userPath}`)}${query}`;
  }

  async read(id: string, userPath: string, range?: string): Promise<FileRead> {
    const path = this.path(id, "file", userPath);
    const res = await this.http.stream("GET", path, {
      headers: range === undefined ? {} : { range },
      // A download lasts as long as it lasts; a stalled node is left to the HTTP client's idle timeouts.
      timeoutMs: 0,
    });
    if (!res.headers.get("content-disposition")) {
      const listing = await res.json().catch(() => undefined);
      return { kind: "folder", entries: await this.http.checked(FileListing, listing, path) };
    }
    if (!res.body) throw new Error("the node answered a file without a body");
    return fileBytesOf(res.headers, Readable.fromWeb(res.body as import("node:stream/web").ReadableStream));
  }

  async write(id: string, userPath: string, body: Readable): Promise<void> {
    try {
      const res = await this.http.stream("PUT", this.path(id, "file", userPath), {
        body,
        headers: { "content-type": "application/octet-stream" },
        timeoutMs: 0,
      });
      await res.body?.cancel();
    } catch (error) {
      // The node answered before reading everything (a refused path): drop the rest so our answer goes out.
      if (!body.destroyed) body.resume();
      throw uploadFailure(error);
    }
  }

  async makeFolder(id: string, userPath: string, signal?: AbortSignal): Promise<void> {
    await this.http.call("PUT", this.path(id, "file", userPath, "?folder=true"), { signal });
  }

  async remove(id: string, userPath: string): Promise<void> {
    await this.http.call("DELETE", this.path(id, "file", userPath), { timeoutMs: slowCallMs });
  }

  async move(id: string, from: string, to: string): Promise<void> {
    await this.http.call("POST", this.path(id, "file", from), {
      json: { action: "move", to },
      timeoutMs: slowCallMs,
    });
  }

  async archive(id: string, destination: string, sources: readonly string[]): Promise<void> {
    // Making an archive of a large tree takes as long as it takes.
    await this.http.call("POST", this.path(id, "archive", destination), { json: sources, timeoutMs: 0 });
  }

  async extract(id: string, source: string, destination?: string): Promise<void> {
    const query = destination === undefined ? "" : `?destination=${encodeURIComponent(destination)}`;
    await this.http.call("POST", this.path(id, "extract", source, query), { timeoutMs: 0 });
  }
}
