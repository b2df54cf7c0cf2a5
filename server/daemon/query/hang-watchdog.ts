import { hangRestartCap } from "../../contract/node/server-wire.ts";
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
 * from its start. A server that hangs again and again is not restarted forever: after
 * `hangRestartCap.restarts` restarts within `hangRestartCap.minutes` it is stopped and left
 * stopped (marked `unresponsiveStopped`, which the panel's alert watch also alerts on) until
 * someone starts it.
 */
export class HangWatchdog {
  private readonly misses = new Map<string, number>();
  private readonly restarting = new Set<string>();
  /** When each server was restarted by the watchdog, within the cap's window (performance.now()). */
  private readonly restarts = new Map<string, number[]>();
  /** Servers it stopped for good; started again by someone, they are watched afresh. */
  private readonly gaveUp = new Set<string>();
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
        if (status.running && this.gaveUp.delete(server.id)) this.restarts.delete(server.id);
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
    const now = performance.now();
    const windowMs = hangRestartCap.minutes * 60_000;
    const recent = (this.restarts.get(server.id) ?? []).filter((at) => now - at < windowMs);
    if (recent.length >= hangRestartCap.restarts) return this.giveUp(server, recent.length);
    this.restarts.set(server.id, [...recent, now]);
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

  /** Stops a server that keeps hanging, and leaves it stopped. */
  private async giveUp(server: ManagedServer, restarts: number): Promise<void> {
    this.restarting.add(server.id);
    try {
      server.instance.notice("unresponsiveStopped", { count: restarts, minutes: hangRestartCap.minutes });
      server.markUnresponsive(true, true);
      this.gaveUp.add(server.id);
      await server.instance.stop(true);
    } catch {
      // The stop's own console lines say what happened (stopTimeout, exited).
    } finally {
      this.restarting.delete(server.id);
    }
  }
}
