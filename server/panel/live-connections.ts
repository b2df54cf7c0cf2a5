import { ApiError } from "../errors.ts";

/** One open connection that acts for a user: a console socket or an SFTP session. */
export interface LiveConnection {
  kind: "console" | "sftp";
  userId: number;
  /** The session (cookie or bearer token) it was opened with; SFTP sign-ins have one of their own. */
  sessionHash: string;
  serverId: string;
  /** The client's address, for the per-address cap. */
  address: string;
}

export interface ConnectionLimits {
  perUser: number;
  perSession: number;
  perAddress: number;
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
 * user could take every file descriptor of the process.
 */
export class LiveConnections {
  private readonly open = new Map<LiveConnection, (reason: string) => void>();

  constructor(private readonly limits: ConnectionLimits) {}

  /** Takes a place for a connection, or throws 429 ErrTooManyConnections when a cap is reached. */
  reserve(connection: LiveConnection): Reservation {
    const held = [...this.open.keys()];
    const count = (same: (c: LiveConnection) => boolean) => held.filter(same).length;
    if (count((c) => c.userId === connection.userId) >= this.limits.perUser)
      throw tooMany("for this user", this.limits.perUser);
    if (count((c) => c.sessionHash === connection.sessionHash) >= this.limits.perSession)
      throw tooMany("for this session", this.limits.perSession);
    if (count((c) => c.address === connection.address) >= this.limits.perAddress)
      throw tooMany("from this address", this.limits.perAddress);
    let close: (reason: string) => void = () => {};
    let released = false;
    this.open.set(connection, (reason) => close(reason));
    return {
      attach: (closeIt) => {
        close = closeIt;
      },
      release: () => {
        if (released) return;
        released = true;
        this.open.delete(connection);
      },
    };
  }

  closeForUser(userId: number): void {
    this.closeWhere((c) => c.userId === userId, "the account was deleted");
  }

  closeForSession(sessionHash: string): void {
    this.closeWhere((c) => c.sessionHash === sessionHash, "signed out");
  }

  /** Every connection of the user but those of the session kept (the one that changed the password). */
  closeForUserExcept(userId: number, keptSessionHash: string | undefined, reason: string): void {
    this.closeWhere((c) => c.userId === userId && c.sessionHash !== keptSessionHash, reason);
  }

  /** The user's rights on that server changed: their connections there reopen with the rights they now have. */
  closeForUserOnServer(userId: number, serverId: string): void {
    this.closeWhere(
      (c) => c.userId === userId && c.serverId === serverId,
      "your permissions on this server changed",
    );
  }

  /** How many are open (for tests and the bench). */
  get size(): number {
    return this.open.size;
  }

  private closeWhere(match: (c: LiveConnection) => boolean, reason: string): void {
    for (const [connection, close] of [...this.open]) {
      if (!match(connection)) continue;
      this.open.delete(connection);
      close(reason);
    }
  }
}
