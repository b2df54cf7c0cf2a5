import {
  NodeSpace,
  type NodeTransfers,
  TransferOffer,
  type TransferProgress,
  TransferProgressAnswer,
  TransferReceipt,
  type TransferSourceAddress,
  transferExportPath,
} from "../contract/node/transfer-wire.ts";
import type { NodeHttp } from "./node-http.ts";

/** A remote node's transfer API, through the daemon's routes under /daemon/transfer/{id}. */
export class RemoteTransfers implements NodeTransfers {
  constructor(readonly http: NodeHttp) {}

  private path(id: string, rest: string): string {
    return `/daemon/transfer/${encodeURIComponent(id)}/${rest}`;
  }

  /** The grant, and where the target fetches with it: this node's private address, as the panel reaches it. */
  async offer(serverId: string): Promise<TransferOffer & { url: string }> {
    // Sums the sizes of the server's files: a large tree takes a while.
    const offer = await this.http.call("POST", this.path(serverId, "offer"), {
      answer: TransferOffer,
      timeoutMs: 60_000,
    });
    return { ...offer, url: this.http.address.baseUrl + transferExportPath(serverId) };
  }

  async release(serverId: string): Promise<void> {
    await this.http.call("POST", this.path(serverId, "release"));
  }

  /** Answers when the whole server has arrived and been checked: no timeout. */
  pull(serverId: string, source: TransferSourceAddress): Promise<TransferReceipt> {
    return this.http.call("POST", this.path(serverId, "pull"), {
      json: source,
      answer: TransferReceipt,
      timeoutMs: 0,
    });
  }

  async activate(serverId: string): Promise<void> {
    await this.http.call("POST", this.path(serverId, "activate"));
  }

  async progress(serverId: string): Promise<TransferProgress | undefined> {
    const answer = await this.http.call("GET", this.path(serverId, "progress"), {
      answer: TransferProgressAnswer,
    });
    return answer.received === undefined ? undefined : { received: answer.received };
  }

  space(): Promise<NodeSpace> {
    return this.http.call("GET", "/daemon/space", { answer: NodeSpace });
  }
}
