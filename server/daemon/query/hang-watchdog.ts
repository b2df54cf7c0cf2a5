import { errorText } from "../../errors.ts";
import type { ManagedServer } from "../servers/managed-server.ts";

/** How often a watched server is asked (OUTPOST_WATCHDOG_SECONDS): N misses take N × this. */
export const watchdogIntervalMs = 30_000;

/**
 * The hang watchdog (issue 37): a server whose run option `unresponsiveRestartAfter` is N (0 or
 * absent: off) and that runs but does not answer its query N rounds in a row is restarted — stopped
 * as a stop asks (its stop text, killed after the grace period) and started again — and marked
 * `unresponsive` in its status until its query answers again; the panel's alert watch turns that
 * mark into a `server.unresponsive` alert. A server with nothing to ask (no query type or port) is
 * never counted. Choose N so that N rounds outlast the game's own start-up: a server is counted
 * from its start.
 */
export class HangWatchdog {
  private readonly misses = new Map<string, number>();
  private readonly restarting = new Set<string>();
  private timer?: NodeJS.Timeout;
  private round?: Promise<void>;

  constructor(
    private readonly servers: () => ManagedServer[],
    /** Asks the server afresh: whether it answered; null when there is nothing to ask. */
    private readonly answers: (id: string) => Promise<boolean | null>,
    private readonly intervalMs = watchdogIntervalMs,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.round ??= this.check().finally(() => {
        this.round = undefined;
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** One round: every watched server asked at once (each answer is bounded in time). */
  async check(): Promise<void> {
    const watched = new Set<string>();
    await Promise.all(
      this.servers().map(async (server) => {
        const after = server.definition.run.unresponsiveRestartAfter ?? 0;
        const status = server.status();
        if (after < 1 || !status.running || status.starting || this.restarting.has(server.id)) return;
        watched.add(server.id);
        const answered = await this.answers(server.id).catch(() => null);
        if (answered === null) return this.misses.delete(server.id);
        if (answered) {
          this.misses.delete(server.id);
          return server.markUnresponsive(false);
        }
        const count = (this.misses.get(server.id) ?? 0) + 1;
        if (count < after) return this.misses.set(server.id, count);
        this.misses.delete(server.id);
        await this.restart(server, count);
      }),
    );
    // A server that stopped or left the watch starts counting afresh.
    for (const id of this.misses.keys()) if (!watched.has(id)) this.misses.delete(id);
  }

  private async restart(server: ManagedServer, count: number): Promise<void> {
    this.restarting.add(server.id);
    try {
      server.instance.notice("restartUnresponsive", { count });
      server.markUnresponsive(true);
      await server.instance.stop(true);
      await server.start();
    } catch (err) {
      server.instance.notice("restartFailed", { reason: errorText(err) });
    } finally {
      this.restarting.delete(server.id);
    }
  }
}
