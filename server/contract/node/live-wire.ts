import { type Static, Type } from "typebox";
import type { ServerLimits } from "../../templates/index.ts";
import { NodeEvent } from "./node-events.ts";
import { ServerStatusView, type StatsView } from "./server-wire.ts";
import { WireServerLimits } from "./template-wire.ts";

/**
 * One live stream per node (GET /daemon/live, a WebSocket): the status, stats
 * and limits of every server the panel watches there, on one connection
 * whatever the number of servers, and (asked for with `?events=1`) the
 * node's events (node-events.ts) on the same connection, so the panel holds
 * one socket per node for both. The panel names the servers it wants
 * (`subscribe` / `unsubscribe`); the node answers each one's status at once,
 * then a status frame on each change and a stats frame per sample while it runs.
 *
 * Subscribe/unsubscribe rather than "every server the node has": a stats
 * frame costs the node a /proc sample per server per interval, so it samples
 * only what someone looks at (a node may hold hundreds of idle-watched servers).
 */

const ServerId = Type.String({ minLength: 1, maxLength: 64 });
/** The most ids one frame may name (a panel sends the servers of one watch change at once). */
export const maxIdsPerLiveFrame = 1000;
const Ids = Type.Array(ServerId, { maxItems: maxIdsPerLiveFrame });

/** Panel → node: start (subscribe) or stop (unsubscribe) the frames of these servers. */
export const LiveRequestFrame = Type.Object({
  type: Type.Union([Type.Literal("subscribe"), Type.Literal("unsubscribe")]),
  ids: Ids,
});
export type LiveRequestFrame = Static<typeof LiveRequestFrame>;

/**
 * Node → panel: a server's status, with the limits in force, on subscribe and on each change.
 * The limits ride here so that a start needs no round trip of its own to read them.
 */
export const NodeLiveStatusFrame = Type.Object({
  type: Type.Literal("status"),
  id: ServerId,
  status: ServerStatusView,
  /** Absent values are the node's defaults, already filled in by the node. */
  limits: WireServerLimits,
});
export type NodeLiveStatusFrame = Static<typeof NodeLiveStatusFrame>;

/** Node → panel: one sample of a running server (disk: the node's last measurement, when it has one). */
export const NodeLiveStatsFrame = Type.Object({
  type: Type.Literal("stats"),
  id: ServerId,
  cpu: Type.Number(),
  memory: Type.Number(),
  disk: Type.Optional(Type.Number()),
});
export type NodeLiveStatsFrame = Static<typeof NodeLiveStatsFrame>;

/** Node → panel: no such server on this node; nothing more comes for it. */
export const NodeLiveGoneFrame = Type.Object({ type: Type.Literal("gone"), id: ServerId });
export type NodeLiveGoneFrame = Static<typeof NodeLiveGoneFrame>;

/** Node → panel: one of the node's events, in order (only on a stream opened with `?events=1`). */
export const NodeLiveEventFrame = Type.Object({ type: Type.Literal("event"), event: NodeEvent });
export type NodeLiveEventFrame = Static<typeof NodeLiveEventFrame>;

export const LiveNodeFrame = Type.Union([
  NodeLiveStatusFrame,
  NodeLiveStatsFrame,
  NodeLiveGoneFrame,
  NodeLiveEventFrame,
]);
export type LiveNodeFrame = Static<typeof LiveNodeFrame>;

/**
 * The stream's query. `events=1`: the node's events come on it too, first those it still keeps
 * after the event `after` (all it keeps when `after` is unknown to it), then each as it comes;
 * a panel reconnecting gives the last event it heard, so none is lost or told twice.
 */
export const LiveQuery = Type.Object({
  events: Type.Optional(Type.Literal("1")),
  after: Type.Optional(Type.String({ maxLength: 100 })),
});
export type LiveQuery = Static<typeof LiveQuery>;

/** What one watcher of a server hears from the node's live stream. */
export interface NodeLiveListener {
  /** The server's status (at once, then on each change), with the limits in force. */
  status(status: ServerStatusView, limits: ServerLimits): void;
  /** One sample, while it runs. */
  stats(stats: StatsView): void;
  /** The node has no such server: nothing more comes. */
  gone(): void;
  /**
   * The node cannot be reached (the stream broke and could not be opened again). Asked for again
   * by the stream itself; `status` comes again once the node is back.
   */
  unreachable(): void;
}

/** A node's live stream, as the panel uses it; LocalNode answers in-process, RemoteNode over GET /daemon/live. */
export interface NodeLive {
  /** Starts the server's frames to the listener; answers the stop. */
  watch(id: string, listener: NodeLiveListener): () => void;
}
