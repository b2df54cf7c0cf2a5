import type { SocketMessage, StatsView } from "../contract/node/server-wire.ts";

type Watcher = (message: SocketMessage) => void;

/**
 * One server's resource samples for the sockets that watch it: one timer and
 * one sample per interval (reading /proc for the whole process tree), shared
 * by every watcher, rather than one per socket — a hundred watchers would
 * otherwise read /proc a hundred times per interval.
 */
export class StatsTicker {
  private readonly watchers = new Set<Watcher>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sample: () => Promise<StatsView>,
    private readonly intervalMs: number,
  ) {}

  /** Adds a watcher; answers its removal (the last one stops the timer). */
  watch(watcher: Watcher): () => void {
    this.watchers.add(watcher);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.intervalMs);
      this.timer.unref();
    }
    return () => {
      this.watchers.delete(watcher);
      if (this.watchers.size > 0) return;
      clearInterval(this.timer);
      this.timer = undefined;
    };
  }

  private tick(): void {
    this.sample()
      .then((data) => {
        const frame: SocketMessage = { type: "stat", data };
        for (const watcher of this.watchers) watcher(frame);
      })
      .catch(() => {});
  }
}
