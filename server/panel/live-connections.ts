import { randomUUID } from "node:crypto";
import type { SftpSessionFilter } from "../contract/node/sftp-wire.ts";
import { ApiError } from "../errors.ts";
import type { NodeClient } from "../link/node-client.ts";
import { RemoteSftpEnds } from "./remote-sftp-ends.ts";
import { rotatedSessionGraceMs } from "./sessions.ts";
import type { SharedState } from "./shared-state.ts";

/** One open connection that acts for a user: a console socket, a live status socket or an SFTP session. */
export interface LiveConnection {
  kind: "console" | "live" | "sftp";
  userId: number;
  /** The session (cookie or bearer token) it was opened with; SFTP sign-ins have one of their own. */
  sessionHash: string;
  /** The server it is about; empty for a live status socket, which watches many. */
  serverId: string;
  /** The client's address, for the per-address cap. */
  address: string;
}

export interface ConnectionLimits {
  perUser: number;
  perSession: number;
  perAddress: number;
}

/** How the panel reaches remote nodes' SFTP sessions (Nodes and Servers, narrowed for this class). */
export interface NodeReach {
  /** Every node the panel holds a client for. */
  allNodes(): NodeClient[];
  /** The node a server lives on. */
  nodeOf(serverId: string): Promise<NodeClient>;
  /** A node's current client; throws for a node that does not exist. */
  client(nodeId: number): Promise<NodeClient>;
}

/** A place taken for a connection before it opens; attach() gives it its way to close. */
export interface Reservation {
  attach(close: (reason: string) => void): void;
  release(): void;
}

const tooMany = (what: string, limit: number) =>
  new ApiError(429, "ErrTooManyConnections", "too many open connections ${what} (at most ${limit})", {
    what,
    limit,
  });

/**
 * Every console socket and SFTP session the panel holds open, by user,
 * session and server, so that taking a right away takes the connections that
 * used it with it at once: signing out, a password change, removal from a
 * server, a change of scopes there, deletion of the user. It also caps how
 * many one user, one session and one address may hold: without a cap one
 * user could take every file descriptor of the process. The caps count every
 * panel's connections (shared-state.ts): a balancer in front of several
 * panels gives no one more.
 *
 * SFTP sessions on a remote node live in `outpost daemon`, not here: they
 * are ended by asking the node through server/link (NodeClient.sftp), with
 * the same user and server. They have no panel session of their own, so
 * only a sign-out of one session leaves them (as it leaves local ones).
 */
export class LiveConnections {
  private readonly open = new Map<LiveConnection, (reason: string) => void>();
  /** Each open connection's place in the shared count (shared_connections). */
  private readonly places = new Map<LiveConnection, string>();
  /** Sessions renewed by reauth → their successor, while the old one is still valid (its grace). */
  private readonly renamed = new Map<string, string>();
  /** Ends remote SFTP sessions, asking again while their node cannot be reached. */
  private readonly sftpEnds: RemoteSftpEnds;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly shared: SharedState,
    private readonly nodes?: NodeReach,
    private readonly log: (msg: string) => void = () => {},
  ) {
    this.sftpEnds = new RemoteSftpEnds(async (id) => {
      if (!nodes) throw new Error("no nodes");
      return nodes.client(id);
    }, log);
  }

  /** Takes a place for a connection, or throws 429 ErrTooManyConnections when a cap is reached. */
  async reserve(connection: LiveConnection): Promise<Reservation> {
    // Opened with a session reauth already replaced (a page's first calls race its reauth): it
    // belongs to the renewed session, so that session's sign-out ends it.
    for (let hops = 0; hops < 8 && this.renamed.has(connection.sessionHash); hops++)
      connection.sessionHash = this.renamed.get(connection.sessionHash) ?? connection.sessionHash;
    const id = randomUUID();
    const full = await this.shared.holdConnection(id, connection, this.limits);
    if (full === "user") throw tooMany("for this user", this.limits.perUser);
    if (full === "session") throw tooMany("for this session", this.limits.perSession);
    if (full === "address") throw tooMany("from this address", this.limits.perAddress);
    let close: (reason: string) => void = () => {};
    let released = false;
    this.open.set(connection, (reason) => close(reason));
    this.places.set(connection, id);
    return {
      attach: (closeIt) => {
        close = closeIt;
      },
      release: () => {
        if (released) return;
        released = true;
        this.forget(connection);
      },
    };
  }

  /** Every connection of the user, on every node (deleted, or their global rights changed). */
  closeForUser(userId: number, reason = "the account was deleted"): void {
    this.closeWhere((c) => c.userId === userId, reason);
    this.endRemoteSftp({ userId });
  }

  closeForSession(sessionHash: string): void {
    this.closeWhere((c) => c.sessionHash === sessionHash, "signed out");
  }

  /** Every connection of the user but those of the session kept (the one that changed the password). */
  closeForUserExcept(userId: number, keptSessionHash: string | undefined, reason: string): void {
    this.closeWhere((c) => c.userId === userId && c.sessionHash !== keptSessionHash, reason);
    // Remote SFTP sessions never belong to the kept session.
    this.endRemoteSftp({ userId });
  }

  /**
   * Closes this panel's connections whose session is gone. Signing out, a password change or a
   * deleted user through another panel sharing the database deletes the sessions there, and that
   * panel's onRevoked reaches only its own connections: each panel sweeps its own (serve.ts, every
   * few seconds). SFTP sessions have no panel session to look for.
   */
  async closeWithoutSession(existing: (hashes: string[]) => Promise<Set<string>>): Promise<void> {
    const hashes = [...new Set([...this.open.keys()].map((c) => c.sessionHash))].filter(
      (h) => !h.startsWith("sftp:"),
    );
    if (hashes.length === 0) return;
    const alive = await existing(hashes);
    this.closeWhere((c) => hashes.includes(c.sessionHash) && !alive.has(c.sessionHash), "signed out");
  }

  /** A renewed session (POST /auth/reauth) takes the old one's connections, so its sign-out ends them. */
  renameSession(from: string, to: string): void {
    for (const connection of this.open.keys())
      if (connection.sessionHash === from) connection.sessionHash = to;
    this.shared.renameSession(from, to).catch((err) => this.log(`connections not renamed: ${err.message}`));
    // The old session stays valid for a grace period; what opens with it meanwhile is the new one's.
    this.renamed.set(from, to);
    setTimeout(() => this.renamed.delete(from), rotatedSessionGraceMs).unref();
  }

  /**
   * The user's rights on that server changed: their connections there reopen with the rights they
   * now have. Their live status sockets too, which may watch it: the browser opens them again.
   */
  closeForUserOnServer(userId: number, serverId: string): void {
    this.closeWhere(
      (c) => c.userId === userId && (c.serverId === serverId || c.kind === "live"),
      "your permissions on this server changed",
    );
    void this.endRemoteSftpOn(serverId, { userId, serverId });
  }

  /** A server moved to another node: its consoles reopen there, its SFTP sessions on the old node end. */
  closeForServerMoved(serverId: string, userIds: number[], oldNode: NodeClient): void {
    this.closeWhere((c) => c.serverId === serverId && c.kind !== "live", "the server moved to another node");
    for (const userId of userIds) this.endSftp(oldNode, { userId, serverId });
  }

  /** How many are open (for tests and the bench). */
  get size(): number {
    return this.open.size;
  }

  private endRemoteSftp(filter: SftpSessionFilter): void {
    for (const node of this.nodes?.allNodes() ?? []) this.endSftp(node, filter);
  }

  private async endRemoteSftpOn(serverId: string, filter: SftpSessionFilter): Promise<void> {
    if (!this.nodes) return;
    try {
      this.endSftp(await this.nodes.nodeOf(serverId), filter);
    } catch (error) {
      this.log(`SFTP sessions on server ${serverId} not ended: ${(error as Error).message}`);
    }
  }

  private endSftp(node: NodeClient, filter: SftpSessionFilter): void {
    this.sftpEnds.end(node, filter);
  }

  private closeWhere(match: (c: LiveConnection) => boolean, reason: string): void {
    for (const [connection, close] of [...this.open]) {
      if (!match(connection)) continue;
      this.forget(connection);
      close(reason);
    }
  }

  /** Drops a connection here and gives its place back (a failure leaves it to lapse with this panel's lease at stop). */
  private forget(connection: LiveConnection): void {
    this.open.delete(connection);
    const id = this.places.get(connection);
    this.places.delete(connection);
    if (id)
      this.shared
        .releaseConnection(id)
        .catch((err) => this.log(`connection place not freed: ${err.message}`));
  }
}
