import type { NotificationEvent } from "../../contract/api/notifications.ts";
import type { NodeLive } from "../../contract/node/live-wire.ts";
import { hangRestartCap, type ServerStatusView, type StatsView } from "../../contract/node/server-wire.ts";
import type { Db } from "../../db/database.ts";
import { writeGeneration } from "../../db/write-generation.ts";
import type { ServerLimits } from "../../templates/index.ts";
import type { PanelChanges } from "../panel-changes.ts";
import type { Permissions } from "../permissions.ts";
import { holdsScope } from "../scopes.ts";
import { split } from "./channels.ts";
import type { AlertEvent } from "./notifier.ts";

/** The events seen in a server's status and stats stream. */
const streamEvents: readonly NotificationEvent[] = [
  "server.crashed",
  "server.installFailed",
  "server.unresponsive",
  "disk.nearLimit",
];
const MiB = 1024 * 1024;
/** Near the limit from 90 %; told again only after use fell under 80 % (no alert per tick around 90). */
const nearShare = 0.9;
const clearShare = 0.8;

interface Watch {
  end?: () => void;
  retry?: NodeJS.Timeout;
  status?: ServerStatusView;
  limits?: ServerLimits;
  near?: boolean;
}

/**
 * Follows the status and stats of each server some alert channel is about
 * (one watch on its node's live stream, the stream LiveStatus uses for
 * /api/live: one connection per node however many servers) and turns what
 * it sees into alerts:
 * - `server.crashed`: a status that says the process stopped by crashing
 *   (the node's `crashed` flag: it exited unasked, not with its expected code);
 * - `server.installFailed`: an install ended with the node's `installFailure`;
 * - `server.unresponsive`: the node's hang watchdog restarted a server whose query stopped
 *   answering (its status's `unresponsive` mark, set until the query answers again), and again,
 *   with the cap as its detail, when it gave up on one that kept hanging (`unresponsiveStopped`);
 * - `disk.nearLimit`: a stats frame whose disk figure (the node's last
 *   measurement) is 90 % of the server's disk limit or more.
 * The set of servers is read again when it may have changed, not on a timer: when a channel
 * changes, a server is recorded or deleted, or rights change on this panel (PanelChanges), and
 * shortly after another panel's commit is heard (PostgreSQL's notifications: a burst of them
 * reads once). A server made and crashing in the same second is so followed from its creation.
 * A stream the node ends or cannot give is asked for again.
 *
 * Limit: a stream is held for every server some channel concerns, so a node
 * keeps sampling those servers' stats while they run.
 */
export class AlertWatch {
  private readonly watches = new Map<string, Watch>();
  private following: (() => void)[] = [];
  private elsewhere?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly permissions: Permissions,
    private readonly liveOf: (id: string) => Promise<NodeLive>,
    private readonly notify: (event: AlertEvent) => void,
    private readonly changes: PanelChanges,
    /** How long after another panel's commit the set is read (one read for a burst). */
    private readonly elsewhereMs = 500,
    private readonly retryMs = 5000,
  ) {}

  start(): void {
    this.stopped = false;
    this.following = [
      this.changes.on((change) => (change === "elsewhere" ? this.refreshSoon() : this.refresh())),
      writeGeneration(this.db).onElsewhere(() => this.refreshSoon()),
    ];
    this.refresh();
  }

  stop(): void {
    this.stopped = true;
    for (const unfollow of this.following) unfollow();
    this.following = [];
    clearTimeout(this.elsewhere);
    for (const id of [...this.watches.keys()]) this.drop(id);
  }

  /** A refresh a moment from now, however many commits arrive meanwhile. */
  private refreshSoon(): void {
    if (this.stopped || this.elsewhere) return;
    this.elsewhere = setTimeout(() => {
      this.elsewhere = undefined;
      this.refresh();
    }, this.elsewhereMs);
    this.elsewhere.unref();
  }

  /** Reads the set of servers again (one read at a time; a call meanwhile reads once more after). */
  refresh(): void {
    if (this.stopped) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = this.reconcile()
      .catch(() => {})
      .finally(() => {
        this.refreshing = undefined;
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }

  /** The servers being followed (for tests). */
  get followed(): string[] {
    return [...this.watches.keys()];
  }

  private async reconcile(): Promise<void> {
    const wanted = await this.wanted();
    if (this.stopped) return;
    for (const id of [...this.watches.keys()]) if (!wanted.has(id)) this.drop(id);
    for (const id of wanted)
      if (!this.watches.has(id)) {
        const watch: Watch = {};
        this.watches.set(id, watch);
        void this.open(id, watch);
      }
  }

  /** Every server a channel that wants a stream event concerns, as its owner can see them. */
  private async wanted(): Promise<Set<string>> {
    const channels = (
      await this.db.selectFrom("notification_channels").select(["user_id", "events", "servers"]).execute()
    ).filter((c) => split(c.events).some((e) => streamEvents.includes(e as NotificationEvent)));
    const wanted = new Set<string>();
    const everyServerOf = new Set<number>();
    for (const channel of channels) {
      const chosen = split(channel.servers);
      if (chosen.length > 0) for (const id of chosen) wanted.add(id);
      else everyServerOf.add(channel.user_id);
    }
    if (everyServerOf.size > 0) {
      const grants = [...(await this.permissions.grantsOf([...everyServerOf])).values()];
      if (grants.some((rows) => holdsScope(rows.get("") ?? [], "admin"))) {
        for (const { id } of await this.db.selectFrom("servers").select("id").execute()) wanted.add(id);
      } else
        for (const rows of grants) for (const serverId of rows.keys()) if (serverId) wanted.add(serverId);
    }
    // Only servers that exist (a channel may still name a deleted one).
    if (wanted.size === 0) return wanted;
    const existing = await this.db
      .selectFrom("servers")
      .select("id")
      .where("id", "in", [...wanted])
      .execute();
    return new Set(existing.map((r) => r.id));
  }

  private drop(id: string): void {
    const watch = this.watches.get(id);
    if (!watch) return;
    this.watches.delete(id);
    clearTimeout(watch.retry);
    watch.end?.();
  }

  private current(id: string, watch: Watch): boolean {
    return this.watches.get(id) === watch;
  }

  private async open(id: string, watch: Watch): Promise<void> {
    try {
      const live = await this.liveOf(id);
      if (!this.current(id, watch)) return;
      watch.end = live.watch(id, {
        status: (status, limits) => this.status(id, watch, status, limits),
        stats: (stats) => this.stats(id, watch, stats),
        // What comes once the node is back tells what was, not what just happened.
        unreachable: () => {
          watch.status = undefined;
        },
        gone: () => {
          watch.end = undefined;
          watch.status = undefined;
          this.retry(id, watch);
        },
      });
    } catch {
      this.retry(id, watch);
    }
  }

  private retry(id: string, watch: Watch): void {
    if (!this.current(id, watch)) return;
    clearTimeout(watch.retry);
    watch.retry = setTimeout(() => {
      if (this.current(id, watch) && !watch.end) void this.open(id, watch);
    }, this.retryMs);
    watch.retry.unref();
  }

  private status(id: string, watch: Watch, status: ServerStatusView, limits: ServerLimits): void {
    const before = watch.status;
    watch.status = status;
    watch.limits = limits;
    if (status.running && !before?.running) watch.near = false;
    // The first frame of a stream tells what was, not what just happened.
    if (!before) return;
    if (status.crashed && !before.crashed) this.notify({ type: "server.crashed", serverId: id });
    if (status.unresponsive && !before.unresponsive)
      this.notify({ type: "server.unresponsive", serverId: id });
    if (status.unresponsiveStopped && !before.unresponsiveStopped)
      this.notify({
        type: "server.unresponsive",
        serverId: id,
        detail: `${hangRestartCap.restarts} restarts in ${hangRestartCap.minutes} minutes`,
        // Not a repeat of the restart's alert a moment before: this one says it was left stopped.
        key: `${id}:stopped`,
      });
    if (before.installing && !status.installing && status.installFailure)
      this.notify({ type: "server.installFailed", serverId: id, detail: status.installFailure });
  }

  private stats(id: string, watch: Watch, stats: StatsView): void {
    const limitMiB = watch.limits?.diskMiB;
    if (stats.disk === undefined || !limitMiB) return;
    const share = stats.disk / (limitMiB * MiB);
    if (share >= nearShare && !watch.near) {
      watch.near = true;
      this.notify({
        type: "disk.nearLimit",
        serverId: id,
        detail: `${Math.round(stats.disk / MiB)} of ${limitMiB} MiB`,
      });
    } else if (share < clearShare) watch.near = false;
  }
}
