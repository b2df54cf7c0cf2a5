import type { LiveStatsFrame, LiveStatusFrame } from "../contract/api/live.ts";
import type { NodeServers, ServerStatusView, StatsView } from "../contract/node/server-wire.ts";
import type { ServerLimits } from "../templates/index.ts";

/** What one `/api/live` socket wants of one server, as its caller's scopes allow. */
export interface LiveWatcher {
  status: boolean;
  stats: boolean;
  /** A frame's JSON as UTF-8, made once for every watcher. */
  send(frame: Buffer): void;
}

/** One watched server: one node stream, whatever the number of watchers. */
interface Feed {
  readonly watchers: Set<LiveWatcher>;
  status?: ServerStatusView;
  /** The last status frame, for a watcher that joins later. */
  statusFrame?: Buffer;
  end?: () => void;
  retry?: NodeJS.Timeout;
  /** The limits in force, read from the node each time the server starts (stats frames carry them). */
  limits?: ServerLimits;
  servers?: NodeServers;
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
 * Live status for every `/api/live` socket of this panel (issue 25). The
 * panel holds one status+stats stream per watched server from the server's
 * node (LocalNode in-process, RemoteNode over the daemon's socket), and the
 * node samples the server once per interval for that stream however many
 * people watch; the panel fans frames out, encoded once. A status frame goes
 * out only when the status changes; a stats frame only while the server runs.
 *
 * A stream that cannot be had (node unreachable) or that the node ends is
 * asked for again every `retryMs` while anyone still watches; a server that
 * does not exist is not asked for again.
 */
export class LiveStatus {
  private readonly feeds = new Map<string, Feed>();

  constructor(
    private readonly serversOf: (id: string) => Promise<NodeServers>,
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

  /** How many node streams are open or being opened (for tests and the bench). */
  get streams(): number {
    return this.feeds.size;
  }

  private async open(id: string, feed: Feed): Promise<void> {
    const current = () => this.feeds.get(id) === feed;
    try {
      const servers = await this.serversOf(id);
      if (!current()) return;
      feed.servers = servers;
      const end = await servers.subscribe(
        id,
        ["status", "stats"],
        (message) => {
          if (message.type === "status") this.status(id, feed, message.data);
          else if (message.type === "stat") this.stats(id, feed, message.data);
        },
        () => {
          feed.end = undefined;
          // What the node says once it is back goes out even when it is what it said before.
          feed.status = undefined;
          this.again(id, feed);
        },
      );
      if (current()) feed.end = end;
      else end();
    } catch (error) {
      if ((error as { code?: string }).code === "ErrServerNotFound") return;
      if (!feed.warned) this.log(`live status of server ${id} not available: ${(error as Error).message}`);
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
    if (status.running && !feed.status?.running) this.readLimits(id, feed);
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

  /** The node's stream carries figures only; the limits they are shown against come once per start. */
  private readLimits(id: string, feed: Feed): void {
    feed.servers
      ?.stats(id)
      .then(({ limits }) => {
        feed.limits = limits;
      })
      .catch(() => {});
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
