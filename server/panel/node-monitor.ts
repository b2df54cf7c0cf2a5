import type { NodeClient } from "../link/node-client.ts";

/**
 * Keeps each remote node's reachable flag fresh: a health check every few
 * seconds while it answers, and after a failure again at 1, 2, 4 s, then
 * every 4 s — so a node that goes or comes back is seen within 10 s.
 */
export const healthyIntervalMs = 3000;
const backoffMs = [1000, 2000, 4000];

interface Watch {
  timer?: NodeJS.Timeout;
  active: boolean;
}

/** Failed checks in a row, after answering before, that count as the node being unreachable (alerts). */
const failuresToTell = 2;

export class NodeMonitor {
  private readonly watches = new Map<number, Watch>();

  constructor(
    /** Told once each time a node that answered stops answering. */
    private readonly onUnreachable: (nodeId: number) => void = () => {},
    /**
     * Told when a node answers after not answering: its first answer once watched (the panel
     * started, or the node was added or changed), and at the next check after any call found it
     * back from being unreachable.
     */
    private readonly onReachable: (nodeId: number) => void = () => {},
  ) {}

  watch(client: NodeClient): void {
    this.unwatch(client.nodeId);
    const watch: Watch = { active: true };
    this.watches.set(client.nodeId, watch);
    let failures = 0;
    let answered = false;
    let comebacks = 0;
    const check = async () => {
      try {
        await client.health();
        failures = 0;
        answered = true;
        // Counted by the client, so a return first seen by another call (after a change of rights
        // the node missed) is told as well, at this check.
        if (client.comebacks !== comebacks && watch.active) {
          comebacks = client.comebacks;
          this.onReachable(client.nodeId);
        }
      } catch {
        failures++;
        if (answered && failures === failuresToTell && watch.active) {
          answered = false;
          this.onUnreachable(client.nodeId);
        }
      }
      if (!watch.active) return;
      const delay = failures === 0 ? healthyIntervalMs : backoffMs[Math.min(failures, backoffMs.length) - 1];
      watch.timer = setTimeout(() => void check(), delay);
      watch.timer.unref();
    };
    void check();
  }

  unwatch(nodeId: number): void {
    const watch = this.watches.get(nodeId);
    if (!watch) return;
    watch.active = false;
    clearTimeout(watch.timer);
    this.watches.delete(nodeId);
  }

  stop(): void {
    for (const id of [...this.watches.keys()]) this.unwatch(id);
  }
}
