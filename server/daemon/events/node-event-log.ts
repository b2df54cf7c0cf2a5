import { randomUUID } from "node:crypto";
import type { NodeActivity, NodeEvent, NodeEvents } from "../../contract/node/node-events.ts";

/** Events kept for a panel that reconnects: enough for minutes of busy SFTP, a few hundred KiB at most. */
const keptEvents = 2000;

/**
 * The node's events in order, the newest `keptEvents` of them held in memory so a
 * panel that was cut off (restarted, network gone) gets what it missed when
 * it comes back. Ids are `<boot>:<seq>`: unique across the node's restarts,
 * so several panels hearing one node, or one panel hearing an event twice,
 * record it once (the panel stores the id).
 */
export class NodeEventLog implements NodeEvents {
  private readonly boot = randomUUID();
  private seq = 0;
  private readonly ring: (NodeEvent & { seq: number })[] = [];
  private readonly listeners = new Set<(event: NodeEvent) => void>();

  activity(data: NodeActivity): void {
    this.emit({ id: "", type: "activity", data });
  }

  private emit(event: NodeEvent): void {
    const seq = ++this.seq;
    const sent: NodeEvent = { ...event, id: `${this.boot}:${seq}` };
    this.ring.push({ ...sent, seq });
    if (this.ring.length > keptEvents) this.ring.shift();
    for (const listener of this.listeners) {
      try {
        listener(sent);
      } catch {
        // One listener's failure is its own.
      }
    }
  }

  async subscribe(
    after: string | undefined,
    onEvent: (event: NodeEvent) => void,
    _onEnd: () => void,
  ): Promise<() => void> {
    const [boot, seq] = (after ?? "").split(":");
    const from = boot === this.boot ? Number(seq) || 0 : 0;
    for (const { seq: s, ...event } of this.ring) if (s > from) onEvent(event);
    this.listeners.add(onEvent);
    return () => this.listeners.delete(onEvent);
  }
}
