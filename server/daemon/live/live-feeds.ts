import type { NodeLive, NodeLiveListener } from "../../contract/node/live-wire.ts";
import type { ServerLimits } from "../../templates/index.ts";
import type { ServerOps } from "../server-ops.ts";

/**
 * The node's live status, stats and limits of one server per watch
 * (NodeLive): the in-process answer the local node gives, and what
 * GET /daemon/live serves a remote panel. It rides on the same per-server
 * subscription the console socket uses, so a server watched both ways is
 * still sampled once per interval.
 */
export class LiveFeeds implements NodeLive {
  constructor(private readonly ops: ServerOps) {}

  watch(id: string, listener: NodeLiveListener): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    this.ops
      .subscribe(
        id,
        ["status", "stats"],
        (message) => {
          if (stopped) return;
          if (message.type === "status") listener.status(message.data, this.limits(id));
          else if (message.type === "stat") {
            const { cpu, memory, disk } = message.data;
            listener.stats(disk === undefined ? { cpu, memory } : { cpu, memory, disk });
          }
        },
        () => {},
      )
      .then(
        (end) => {
          if (stopped) end();
          else stop = end;
        },
        () => {
          // The only way a subscription fails: the node has no such server.
          if (!stopped) listener.gone();
        },
      );
    return () => {
      stopped = true;
      stop?.();
    };
  }

  /** Read at each status (a change of definition between two starts shows at the next). */
  private limits(id: string): ServerLimits {
    try {
      return this.ops.limits(id);
    } catch {
      return {};
    }
  }
}
