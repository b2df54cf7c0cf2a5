import { type Static, Type } from "typebox";

/**
 * What a node tells its panel of its own accord, as one stream of events.
 * Kept general: each event is `{id, type, data}`; a panel ignores a type it
 * does not know. The activity log reads `activity` events (the node's own
 * changes: SFTP writes, task runs); other features may add their types.
 */

/** A change made on the node, not through the panel's API. */
export const NodeActivity = Type.Object({
  /** Unix milliseconds. */
  at: Type.Number(),
  serverId: Type.String(),
  /** The SFTP user (the name they signed in with, and the panel's user id), or the task that ran. */
  actor: Type.Union([
    Type.Object({ kind: Type.Literal("sftp"), name: Type.String(), userId: Type.Optional(Type.Number()) }),
    Type.Object({ kind: Type.Literal("task"), name: Type.String(), taskId: Type.String() }),
  ]),
  /** Where an SFTP client connected from; "" for a task. */
  address: Type.String(),
  /** The same names as the API's: `file.write`, `file.delete`, `file.rename`, `file.mkdir`, `task.run`. */
  action: Type.String(),
  ok: Type.Boolean(),
  /** A file path, or `task:<id>`. */
  subject: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
});
export type NodeActivity = Static<typeof NodeActivity>;

/** One event: a frame of GET /daemon/events, or the `event` of a live-wire.ts event frame. */
export const NodeEvent = Type.Object({
  id: Type.String(),
  type: Type.Literal("activity"),
  data: NodeActivity,
});
export type NodeEvent = Static<typeof NodeEvent>;

/** `?after=`: the last event the panel has. */
export const NodeEventsQuery = Type.Object({ after: Type.Optional(Type.String({ maxLength: 100 })) });

/** What the panel asks of a node about its events; LocalNode and RemoteNode both provide it. */
export interface NodeEvents {
  /**
   * Streams the node's events: first those it still keeps after the event `after` (all it keeps
   * when `after` is unknown to it, e.g. from before a restart), then each as it comes. Resolves to a
   * function that ends the stream; `onEnd` is called when the node ended it.
   */
  subscribe(
    after: string | undefined,
    onEvent: (event: NodeEvent) => void,
    onEnd: () => void,
  ): Promise<() => void>;
}
