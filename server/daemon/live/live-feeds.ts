import type { NodeLive, NodeLiveListener } from "../../contract/node/live-wire.ts";
import type { ServerLimits } from "../../templates/index.ts";
import type { ServerOps } from "../server-ops.ts";
import type { ServerStore } from "../servers/server-store.ts";

/**
 * The node's live status, stats and limits of one server per watch
 * (NodeLive): the in-process answer the local node gives, and what
 * GET /daemon/live serves a remote panel. It rides on the same per-server
 * subscription the console socket uses, so a server watched both ways is
 * still sampled once per interval. A server deleted while watched is told
 * `gone` (moved to another node, the panel looks for it there).
 */
export class LiveFeeds implements NodeLive {
  /** Each watched server's listeners, to tell them when it is deleted. */
  private readonly watching = new Map<string, Set<NodeLiveListener>>();

  constructor(
    private readonly ops: ServerOps,
    store: ServerStore,
  ) {
    store.afterDelete.push(async (id) => {
      for (const listener of [...(this.watching.get(id) ?? [])]) listener.gone();
    });
  }

  watch(id: string, watcher: NodeLiveListener): () => void {
    let stop: (() => void) | undefined;
    let stopped = false;
    const end = () => {
      stopped = true;
      stop?.();
      const set = this.watching.get(id);
      set?.delete(listener);
      if (set?.size === 0) this.watching.delete(id);
    };
    // Told once at most, and nothing after it.
    const listener: NodeLiveListener = {
      status: (status, limits) => watcher.status(status, limits),
      stats: (stats) => watcher.stats(stats),
      gone: () => {
        end();
        watcher.gone();
      },
      unreachable: () => watcher.unreachable(),
    };
    let set = this.watching.get(id);
    if (!set) {
      set = new Set();
      this.watching.set(id, set);
    }
    set.add(listener);
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
        (unsubscribe) => {
          if (stopped) unsubscribe();
          else stop = unsubscribe;
        },
        () => {
          // The only way a subscription fails: the node has no such server.
          if (!stopped) listener.gone();
        },
      );
    return end;
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
