import net from "node:net";

export interface GateLimits {
  /** Connections held at once: the listener's share of the process's file descriptors. */
  total: number;
  /** Connections one address may hold at once, signed in or not. */
  perAddress: number;
  /** How long a connection has to sign in before it is cut (OpenSSH's LoginGraceTime is 120 s). */
  signInGraceMs: number;
}

export const defaultGateLimits: GateLimits = { total: 1000, perAddress: 100, signInGraceMs: 60_000 };

/**
 * The TCP door of the SFTP listener. Without it, anyone who can reach the
 * port could hold connections open without signing in until the process runs
 * out of file descriptors, and on the local node that process is the panel
 * (issue 13 #4). Over a cap, a connection is dropped at once; one that has
 * not signed in within the grace period is cut.
 */
export class ConnectionGate {
  readonly server: net.Server;
  private total = 0;
  private readonly perAddress = new Map<string, number>();
  /** Grace timers of the connections not signed in yet, by remote address and port. */
  private readonly waiting = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly limits: GateLimits,
    pass: (socket: net.Socket) => void,
  ) {
    this.server = net.createServer((socket) => {
      if (this.admit(socket)) pass(socket);
    });
  }

  /** The connection from that address and port signed in: it may stay past the grace period. */
  signedIn(address: string | undefined, port: number | undefined): void {
    const key = `${address}|${port}`;
    clearTimeout(this.waiting.get(key));
    this.waiting.delete(key);
  }

  private admit(socket: net.Socket): boolean {
    const address = socket.remoteAddress;
    const fromThere = address === undefined ? 0 : (this.perAddress.get(address) ?? 0);
    if (address === undefined || this.total >= this.limits.total || fromThere >= this.limits.perAddress) {
      socket.destroy();
      return false;
    }
    this.total++;
    this.perAddress.set(address, fromThere + 1);
    const key = `${address}|${socket.remotePort}`;
    const grace = setTimeout(() => socket.destroy(), this.limits.signInGraceMs);
    grace.unref();
    this.waiting.set(key, grace);
    socket.once("close", () => {
      clearTimeout(grace);
      this.waiting.delete(key);
      this.total--;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    return true;
  }
}
