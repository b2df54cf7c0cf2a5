import { defaultMaxAgeMs } from "./disk-ledger.ts";
import type { ManagedServer } from "./managed-server.ts";

/** Seconds between two measurements of a running server, by default. */
const defaultSeconds = 30;

/**
 * Holds game processes to their server's disk limit, which the daemon's own
 * writes cannot see: every server with a limit whose process or install
 * steps run is measured in turn
 * (one `du` at a time, so a node with many servers never runs them all at
 * once), and one found over it is stopped (ManagedServer.overDiskLimit).
 * Each round waits the interval after the previous one ends.
 */
export class DiskWatcher {
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;
  private closed = false;

  constructor(
    private readonly servers: () => ManagedServer[],
    private readonly intervalMs = defaultSeconds * 1000,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  start(): void {
    if (this.closed || this.timer) return;
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.round;
  }

  /** Measures every running server with a limit once; stops those over it. */
  async checkAll(): Promise<void> {
    for (const server of this.servers()) {
      if (this.closed) return;
      if (!server.writing() || server.limits().diskMiB === undefined) continue;
      try {
        // A recent measurement (the file manager's, a start's) is reused, never one older than half a round.
        const over = await server.disk.overLimit(Math.min(this.intervalMs / 2, defaultMaxAgeMs));
        if (over !== undefined) server.overDiskLimit(over);
      } catch (error) {
        this.log(`server ${server.id}: disk use not measured: ${(error as Error).message}`);
      }
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.round = this.checkAll().finally(() => {
        this.round = undefined;
        if (!this.closed) this.schedule();
      });
    }, this.intervalMs);
    this.timer.unref();
  }
}
