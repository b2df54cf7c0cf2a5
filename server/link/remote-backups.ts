import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { Value } from "typebox/value";
import {
  type BackupAdoption,
  type BackupBytes,
  BackupEntryList,
  BackupObjectAnswer,
  BackupPolicy,
  type BackupReceipt,
  BackupVerdict,
  NodeBackupList,
  type NodeBackups,
  NodeBackupView,
  PrunedList,
  type S3BackupTarget,
} from "../contract/node/backup-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's backups API, through the daemon's routes under /daemon/server/{id}. */
export class RemoteBackups implements NodeBackups {
  constructor(readonly http: NodeHttp) {}

  private path(id: string, rest: string, fileName?: string): string {
    const query = fileName === undefined ? "" : `?fileName=${encodeURIComponent(fileName)}`;
    return `/daemon/server/${encodeURIComponent(id)}/backup${rest}${query}`;
  }

  /** The node tries the bucket before it answers: a little longer than a plain call. */
  async setTarget(target: S3BackupTarget | null): Promise<void> {
    await this.http.call("PUT", "/daemon/backup-target", { json: { target }, timeoutMs: 20_000 });
  }

  async create(serverId: string, fileName: string): Promise<void> {
    // The node tries its bucket first when it has one.
    await this.http.call("POST", this.path(serverId, "/create", fileName), { timeoutMs: 20_000 });
  }

  list(serverId: string): Promise<NodeBackupView[]> {
    return this.http.call("GET", this.path(serverId, ""), { answer: NodeBackupList });
  }

  async restore(serverId: string, fileName: string, paths?: string[]): Promise<void> {
    // A restore answers when every file is in place: as long as the tree takes to extract.
    await this.http.call("POST", this.path(serverId, "/restore", fileName), {
      json: paths ? { paths } : {},
      timeoutMs: 0,
    });
  }

  async delete(serverId: string, fileName: string): Promise<void> {
    await this.http.call("DELETE", this.path(serverId, "", fileName), { timeoutMs: 60_000 });
  }

  /** The node reads the whole archive: as long as that takes. */
  verify(serverId: string, fileName: string): Promise<BackupVerdict> {
    return this.http.call("POST", this.path(serverId, "/verify", fileName), {
      answer: BackupVerdict,
      timeoutMs: 0,
    });
  }

  /** The node reads the archive through: as long as that takes. */
  files(serverId: string, fileName: string, folder: string): Promise<BackupEntryList> {
    const path = `${this.path(serverId, "/files", fileName)}&path=${encodeURIComponent(folder)}`;
    return this.http.call("GET", path, { answer: BackupEntryList, timeoutMs: 0 });
  }

  /** The node asks its bucket (a HEAD). */
  async objectSize(key: string): Promise<number | null> {
    const answer = await this.http.call("GET", `/daemon/backup-object?key=${encodeURIComponent(key)}`, {
      answer: BackupObjectAnswer,
      timeoutMs: 20_000,
    });
    return answer.size;
  }

  adopt(serverId: string, fileName: string, adoption: BackupAdoption): Promise<NodeBackupView> {
    return this.http.call("PUT", this.path(serverId, "/adopt", fileName), {
      json: adoption,
      answer: NodeBackupView,
      timeoutMs: 20_000,
    });
  }

  /** Streamed as it is read; the node answers once it has checked and kept it. */
  async receive(
    serverId: string,
    fileName: string,
    body: Readable,
    receipt: BackupReceipt,
  ): Promise<NodeBackupView> {
    const query = new URLSearchParams({
      createdAt: String(receipt.createdAt),
      pinned: String(receipt.pinned),
      ...(receipt.sha1 ? { sha1: receipt.sha1 } : {}),
    });
    try {
      const res = await this.http.stream("PUT", `${this.path(serverId, "/receive", fileName)}&${query}`, {
        body,
        headers: { "content-type": "application/gzip" },
        timeoutMs: 0,
      });
      const answer: unknown = await res.json();
      if (!Value.Check(NodeBackupView, answer)) throw this.http.unreachable();
      return answer;
    } catch (error) {
      // The node answered before reading everything (a refusal): the rest is dropped.
      if (!body.destroyed) body.resume();
      throw error;
    }
  }

  async pin(serverId: string, fileName: string, pinned: boolean): Promise<void> {
    await this.http.call("PUT", this.path(serverId, "/pin", fileName), { json: { pinned } });
  }

  policy(serverId: string): Promise<BackupPolicy> {
    return this.http.call("GET", this.path(serverId, "-policy"), { answer: BackupPolicy });
  }

  /** Applying it may delete backups (in a bucket too): longer than a plain call. */
  setPolicy(serverId: string, policy: BackupPolicy): Promise<string[]> {
    return this.http.call("PUT", this.path(serverId, "-policy"), {
      json: policy,
      answer: PrunedList,
      timeoutMs: 60_000,
    });
  }

  /** Streamed through as the node sends it, never held whole. */
  async download(serverId: string, fileName: string): Promise<BackupBytes> {
    const res = await this.http.stream("GET", this.path(serverId, "/download", fileName), { timeoutMs: 0 });
    const size = Number(res.headers.get("content-length"));
    if (!res.body || !Number.isSafeInteger(size)) {
      await res.body?.cancel();
      throw this.http.unreachable();
    }
    return { size, body: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>) };
  }
}
