import type { NodeActivity, NodeEvent } from "../contract/node/node-events.ts";
import type { NodeClient } from "../link/node-client.ts";
import type { Activity } from "./activity.ts";

/** How often the set of nodes is looked at again, and how long a lost stream waits to reconnect. */
const followEveryMs = 2000;

interface Following {
  client: NodeClient;
  /** The last event heard: a reconnection asks for what came after it. */
  last?: string;
  stop?: () => void;
  connecting: boolean;
}

/**
 * Follows every node's event stream (NodeClient.events) and records the
 * node's own changes (SFTP writes, task runs) in the activity log. A stream
 * that ends or cannot be opened is opened again on the next round, from the
 * last event heard; the node keeps its recent events for that. The node's
 * event id is stored with the entry, so an event heard twice is kept once,
 * also when several panels share the database.
 */
export class NodeActivityFeed {
  private readonly following = new Map<number, Following>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly clients: () => NodeClient[],
    private readonly activity: Activity,
    /** The node a server lives on: a node speaks only for its own servers. */
    private readonly nodeIdOf: (serverId: string) => Promise<number | undefined>,
    /** Told of each event kept (the alerts hear of a failed task run at once this way). */
    private readonly onRecorded: (data: NodeActivity) => void = () => {},
  ) {}

  start(): void {
    this.round();
    this.timer = setInterval(() => this.round(), followEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    for (const f of this.following.values()) f.stop?.();
    this.following.clear();
  }

  private round(): void {
    const current = new Map(this.clients().map((c) => [c.nodeId, c]));
    for (const [id, f] of this.following) {
      // A removed node, or one whose address changed (a new client): drop the old stream.
      if (current.get(id) !== f.client) {
        f.stop?.();
        this.following.delete(id);
      }
    }
    for (const [id, client] of current) {
      let f = this.following.get(id);
      if (!f) {
        f = { client, connecting: false };
        this.following.set(id, f);
      }
      if (!f.stop && !f.connecting) this.connect(f);
    }
  }

  private connect(f: Following): void {
    f.connecting = true;
    f.client.events
      .subscribe(
        f.last,
        (event) => this.heard(f, event),
        () => {
          f.stop = undefined;
        },
      )
      .then(
        (stop) => {
          f.connecting = false;
          if (this.following.get(f.client.nodeId) === f) f.stop = stop;
          else stop();
        },
        () => {
          // Unreachable for now: the next round tries again.
          f.connecting = false;
        },
      );
  }

  private heard(f: Following, event: NodeEvent): void {
    f.last = event.id;
    if (event.type !== "activity" || !event.data) return;
    const nodeId = f.client.nodeId;
    void this.nodeIdOf(String(event.data.serverId)).then(
      (owner) => {
        if (owner !== nodeId) return;
        this.onRecorded(event.data);
        return this.activity.record(recordOf(`${nodeId}/${event.id}`, event.data));
      },
      () => {},
    );
  }
}

function recordOf(eventId: string, data: NodeActivity) {
  const actor =
    data.actor.kind === "task"
      ? { kind: "task" as const, name: data.actor.name || data.actor.taskId }
      : // The user is found by the name signed in with, not by the id the node repeats.
        { kind: "sftp" as const, name: String(data.actor.name) };
  return {
    actor,
    address: String(data.address ?? ""),
    action: String(data.action),
    ok: data.ok === true,
    serverId: String(data.serverId),
    subject: String(data.subject ?? ""),
    details: {
      ...(typeof data.details === "object" && data.details ? data.details : {}),
      ...(data.actor.kind === "task" ? { task: data.actor.taskId } : { via: "sftp" }),
    },
    at: typeof data.at === "number" ? data.at : Date.now(),
    eventId,
  };
}
