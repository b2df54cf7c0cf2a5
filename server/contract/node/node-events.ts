/**
 * What a node tells its panel of its own accord, as one stream of events.
 * Kept general: each event is `{id, type, data}`; a panel ignores a type it
 * does not know. The activity log reads `activity` events (the node's own
 * changes: SFTP writes, task runs); other features may add their types.
 */

/** A change made on the node, not through the panel's API. */
export interface NodeActivity {
  /** Unix milliseconds. */
  at: number;
  serverId: string;
  /** The SFTP user (the name they signed in with, and the panel's user id), or the task that ran. */
  actor: { kind: "sftp"; name: string; userId?: number } | { kind: "task"; name: string; taskId: string };
  /** Where an SFTP client connected from; "" for a task. */
  address: string;
  /** The same names as the API's: `file.write`, `file.delete`, `file.rename`, `file.mkdir`, `task.run`. */
  action: string;
  ok: boolean;
  /** A file path, or `task:<id>`. */
  subject: string;
  details: Record<string, unknown>;
}

export type NodeEvent = { id: string; type: "activity"; data: NodeActivity };

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
