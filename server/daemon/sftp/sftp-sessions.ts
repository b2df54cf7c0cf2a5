import type { NodeSftp, SftpSessionFilter } from "../../contract/node/sftp-wire.ts";

interface OpenSession {
  userId: number;
  serverId: string;
  end: () => void;
}

/**
 * The node's signed-in SFTP connections, by the panel user and server they
 * were let in for, so that the panel can end them when that user's rights
 * go (an SFTP sign-in is checked once; without this it would outlive them).
 */
export class SftpSessions implements NodeSftp {
  private readonly open = new Set<OpenSession>();

  /** Tracks one connection; call the answer when it closes. */
  add(userId: number, serverId: string, end: () => void): () => void {
    const session = { userId, serverId, end };
    this.open.add(session);
    return () => this.open.delete(session);
  }

  async endSessions(filter: SftpSessionFilter): Promise<void> {
    for (const session of [...this.open]) {
      if (session.userId !== filter.userId) continue;
      if (filter.serverId !== undefined && session.serverId !== filter.serverId) continue;
      this.open.delete(session);
      session.end();
    }
  }
}
