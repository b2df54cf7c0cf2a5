import type { LiveStatsFrame, LiveStatusFrame } from "../contract/api/live.ts";
import type { NodeLive } from "../contract/node/live-wire.ts";
import type { ServerStatusView, StatsView } from "../contract/node/server-wire.ts";
import { errorText } from "../errors.ts";
import type { ServerLimits } from "../templates/index.ts";

/** What one `/api/live` socket wants of one server, as its caller's scopes allow. */
export interface LiveWatcher {
  status: boolean;
  stats: boolean;
  /** A frame's JSON as UTF-8, made once for every watcher. */
  send(frame: Buffer): void;
}

/** One watched server: one watch on its node's stream, whatever the number of watchers. */
interface Feed {
  readonly watchers: Set<LiveWatcher>;
  status?: ServerStatusView;
  /** The last status frame, for a watcher that joins later. */
  statusFrame?: Buffer;
  end?: () => void;
  retry?: NodeJS.Timeout;
  /** The limits in force, sent by the node with each status (stats frames carry them). */
  limits?: ServerLimits;
  /** Said once per feed, not at every retry. */
  warned?: boolean;
  /** The last frame said the node cannot be reached. */
  unreachable?: boolean;
}

const sameStatus = (a: ServerStatusView | undefined, b: ServerStatusView) =>
  a !== undefined &&
  a.running === b.running &&
  a.installing === b.installing &&
  a.installed === b.installed &&
  a.starting === b.starting &&
  a.installFailure === b.installFailure;

/**
 * Live status for every `/api/live` socket of this panel (issue 25). Each
 * watched server is one watch on its node's live stream (NodeClient.live:
 * LocalNode in-process, RemoteNode over one GET /daemon/live socket per node
 * for all its servers, limits riding with each status), and the node
 * samples the server once per interval however many people watch; the
 * panel fans frames out, encoded once. A status frame goes out only when the
 * status changes; a stats frame only while the server runs.
 *
 * The node stream reconnects by itself and says when the node cannot be
 * reached; a server the node does not have is looked up again once (it may
 * have moved to another node), then left; a server that does not exist is
 * not asked for again.
 */
export class LiveStatus {
  private readonly feeds = new Map<string, Feed>();

  constructor(
    private readonly liveOf: (id: string) => Promise<NodeLive>,
    private readonly log: (msg: string) => void = () => {},
    private readonly retryMs = 5000,
  ) {}

  /** Starts sending `id`'s frames to the watcher (its current status at once when known); answers the stop. */
  watch(id: string, watcher: LiveWatcher): () => void {
    let feed = this.feeds.get(id);
    if (!feed) {
      feed = { watchers: new Set() };
      this.feeds.set(id, feed);
      void this.open(id, feed);
    }
    feed.watchers.add(watcher);
    if (watcher.status && feed.statusFrame) watcher.send(feed.statusFrame);
    const joined = feed;
    return () => {
      joined.watchers.delete(watcher);
      if (joined.watchers.size > 0 || this.feeds.get(id) !== joined) return;
      this.feeds.delete(id);
      clearTimeout(joined.retry);
      joined.end?.();
      joined.end = undefined;
    };
  }

  /** How many servers are watched on their nodes' streams (for tests and the bench). */
  get streams(): number {
    return this.feeds.size;
  }

  /** `goneFrom`: the node that said it has no such server (looked up again in case it moved). */
  private async open(id: string, feed: Feed, goneFrom?: NodeLive): Promise<void> {
    const current = () => this.feeds.get(id) === feed;
    try {
      const live = await this.liveOf(id);
      if (!current() || live === goneFrom) return;
      feed.end = live.watch(id, {
        status: (status, limits) => {
          feed.limits = limits;
          this.status(id, feed, status);
        },
        stats: (stats) => this.stats(id, feed, stats),
        unreachable: () => {
          // What the node says once it is back goes out even when it is what it said before.
          this.unreachable(id, feed);
        },
        gone: () => {
          feed.end = undefined;
          if (current()) void this.open(id, feed, goneFrom ?? live);
        },
      });
    } catch (error) {
      if ((error as { code?: string }).code === "ErrServerNotFound") return;
      if (!feed.warned) this.log(`live status of server ${id} not available: ${errorText(error)}`);
      feed.warned = true;
      this.unreachable(id, feed);
      this.again(id, feed);
    }
  }

  private again(id: string, feed: Feed): void {
    if (this.feeds.get(id) !== feed) return;
    clearTimeout(feed.retry);
    feed.retry = setTimeout(() => {
      if (this.feeds.get(id) === feed && !feed.end) void this.open(id, feed);
    }, this.retryMs);
    feed.retry.unref();
  }

  private status(id: string, feed: Feed, status: ServerStatusView): void {
    if (sameStatus(feed.status, status)) return;
    feed.unreachable = false;
    feed.status = status;
    feed.statusFrame = Buffer.from(
      JSON.stringify({
        type: "status",
        id,
        running: status.running,
        installing: status.installing,
        installed: status.installed,
        // Ours: an egg's done line not seen yet; why a never-installed server's install failed.
        ...(status.starting ? { starting: true } : {}),
        ...(status.installFailure ? { installFailure: status.installFailure } : {}),
      } satisfies LiveStatusFrame),
    );
    for (const watcher of feed.watchers) if (watcher.status) watcher.send(feed.statusFrame);
  }

  /**
   * The server's node cannot be reached: said once, so a list does not wait on a status that
   * cannot come (the server's status is not known; the node is what fails).
   */
  private unreachable(id: string, feed: Feed): void {
    if (feed.unreachable) return;
    feed.status = undefined;
    feed.unreachable = true;
    feed.statusFrame = Buffer.from(
      JSON.stringify({ type: "status", id, unreachable: true } satisfies LiveStatusFrame),
    );
    for (const watcher of feed.watchers) if (watcher.status) watcher.send(feed.statusFrame);
  }

  private stats(id: string, feed: Feed, stats: StatsView): void {
    if (!feed.status?.running) return;
    const { limits } = feed;
    const frame = Buffer.from(
      JSON.stringify({
        type: "stats",
        id,
        cpu: stats.cpu,
        memory: stats.memory,
        limits,
      } satisfies LiveStatsFrame),
    );
    for (const watcher of feed.watchers) if (watcher.stats) watcher.send(frame);
  }
}
