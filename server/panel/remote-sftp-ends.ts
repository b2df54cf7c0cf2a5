import type { SftpSessionFilter } from "../contract/node/sftp-wire.ts";
import type { NodeClient } from "../link/node-client.ts";

/** How often the ends a node could not take are asked again. */
export const sftpEndRetryMs = 15_000;

/**
 * Asks nodes to end SFTP sessions, and asks again until the node has done
 * it: a node that cannot be reached at the moment a user's rights go (a
 * network cut, a node under load) would otherwise keep that user's sessions
 * open for as long as the client stays. Retries go to the node's client of
 * the moment (its address may have been corrected meanwhile); a node that no
 * longer exists is forgotten.
 */
export class RemoteSftpEnds {
  /** What each node (by id) still has to end, one entry per user and server. */
  private readonly pending = new Map<number, Map<string, SftpSessionFilter>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The node's current client; throws when there is no such node any more. */
    private readonly clientOf: (nodeId: number) => Promise<NodeClient>,
    private readonly log: (msg: string) => void,
    private readonly retryMs = sftpEndRetryMs,
  ) {}

  end(node: NodeClient, filter: SftpSessionFilter): void {
    node.sftp.endSessions(filter).catch((error) => {
      this.log(
        `SFTP sessions on node ${node.nodeId} not ended yet (asking again): ${(error as Error).message}`,
      );
      this.later(node.nodeId, filter);
    });
  }

  private later(nodeId: number, filter: SftpSessionFilter): void {
    let ends = this.pending.get(nodeId);
    if (!ends) {
      ends = new Map();
      this.pending.set(nodeId, ends);
    }
    ends.set(`${filter.userId}|${filter.serverId ?? ""}`, filter);
    if (!this.timer) {
      this.timer = setInterval(() => this.retry(), this.retryMs);
      this.timer.unref();
    }
  }

  private retry(): void {
    for (const [nodeId, ends] of this.pending) {
      this.clientOf(nodeId).then(
        (node) => {
          for (const [key, filter] of ends) {
            node.sftp.endSessions(filter).then(
              () => this.done(nodeId, key),
              () => {},
            );
          }
        },
        // The node is gone, and its sessions with it.
        () => this.done(nodeId),
      );
    }
  }

  /** One end done, or (without a key) every end of a node that is gone. */
  private done(nodeId: number, key?: string): void {
    const ends = this.pending.get(nodeId);
    if (key !== undefined) ends?.delete(key);
    if (key === undefined || ends?.size === 0) this.pending.delete(nodeId);
    if (this.pending.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
