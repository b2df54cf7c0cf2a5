import type { WebSocket } from "ws";
import {
  type LiveNodeFrame,
  type LiveRequestFrame,
  maxIdsPerLiveFrame,
  type NodeLive,
  type NodeLiveListener,
} from "../contract/node/live-wire.ts";
import type { NodeEvent } from "../contract/node/node-events.ts";
import type { ServerStatusView } from "../contract/node/server-wire.ts";
import type { ServerLimits } from "../templates/index.ts";
import type { NodeHttp } from "./node-http.ts";

/** One server on the stream: its listeners, and its last status for a listener who joins later. */
interface Entry {
  readonly listeners: Set<NodeLiveListener>;
  status?: { status: ServerStatusView; limits: ServerLimits };
}

/** Reconnection waits: at once after a drop, then doubling from this, up to `maxBackoffMs`. */
const firstBackoffMs = 500;
/** A stream up this long counts as steady: its drop is not one more of a series. */
const steadyAfterMs = 10_000;
/** A stream with no frame nor pong for this long is taken for dead (a host that vanished sends no FIN). */
const pingEveryMs = 20_000;

/**
 * A remote node's live stream (GET /daemon/live, contract/node/live-wire.ts):
 * one WebSocket for the node's events and for the status, stats and limits of
 * every server the panel watches on that node. It is open while someone
 * listens to the events (the activity feed, always) or watches a server;
 * each connection asks for the events after the last one heard, so a
 * reconnection loses none and tells none twice. Servers join and leave it by subscribe/unsubscribe frames,
 * sent together once per turn of the event loop (a watch of a list's page
 * is one frame). A stream that drops is opened again at once, then with a
 * doubling wait; while it cannot be had, every listener hears `unreachable`
 * once, and their servers' status again when it is back.
 */
export class NodeLiveStream implements NodeLive {
  private readonly entries = new Map<string, Entry>();
  /** The ids the node streams on the current connection (asked for there and not dropped since). */
  private readonly onNode = new Set<string>();
  /** Ids whose listeners need their status told afresh (a listener joined with none known). */
  private readonly fresh = new Set<string>();
  private socket?: WebSocket;
  /** Between connect() and the socket's making (ws loads on the first stream). */
  private opening = false;
  private connected = false;
  private flushing = false;
  private retry?: NodeJS.Timeout;
  private pinger?: NodeJS.Timeout;
  private failures = 0;
  /** The listeners have been told the node cannot be reached, and nothing came since. */
  private down = false;
  /** Who hears the node's events, and the last event heard (the next connection resumes after it). */
  private eventListener?: (event: NodeEvent) => void;
  private lastEvent?: string;
  /** The current connection was opened asking for the events. */
  private withEvents = false;
  /** Connections opened so far (for tests). */
  opened = 0;

  constructor(
    private readonly http: NodeHttp,
    private readonly maxBackoffMs = 5000,
  ) {}

  watch(id: string, listener: NodeLiveListener): () => void {
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { listeners: new Set() };
      this.entries.set(id, entry);
      // Still on the node when it left in this same turn: its status is asked for again.
      this.fresh.add(id);
    }
    entry.listeners.add(listener);
    const known = entry.status;
    if (known) queueMicrotask(() => listener.status(known.status, known.limits));
    else if (this.down) queueMicrotask(() => listener.unreachable());
    this.connect();
    this.scheduleFlush();
    const joined = entry;
    return () => {
      joined.listeners.delete(listener);
      if (joined.listeners.size > 0 || this.entries.get(id) !== joined) return;
      this.entries.delete(id);
      this.fresh.delete(id);
      if (!this.wanted) this.shut();
      else this.scheduleFlush();
    };
  }

  /**
   * The node's events to `listener`, from after the event `after` (RemoteEvents); one listener at
   * a time (a new one takes over). The stream reconnects by itself: nothing ends it but the stop.
   */
  events(after: string | undefined, listener: (event: NodeEvent) => void): () => void {
    this.eventListener = listener;
    this.lastEvent = after;
    // A connection made without the events, or from another point, is made again from this one.
    if (this.socket) this.restart();
    else this.connect();
    return () => {
      if (this.eventListener !== listener) return;
      this.eventListener = undefined;
      if (!this.wanted) this.shut();
    };
  }

  /** Someone needs the connection: a listener of the events, or a watcher. */
  private get wanted(): boolean {
    return this.eventListener !== undefined || this.entries.size > 0;
  }

  /** Drops the current connection (without a word to the watchers) and opens another at once. */
  private restart(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.connected = false;
    this.onNode.clear();
    clearInterval(this.pinger);
    socket?.terminate();
    this.connect();
  }

  /** Whether a connection is open or being opened (for tests). */
  get active(): boolean {
    return this.socket !== undefined || this.retry !== undefined;
  }

  private connect(): void {
    if (this.socket || this.retry || this.opening || !this.wanted) return;
    this.opening = true;
    void this.open()
      .catch(() => {
        if (!this.wanted) return;
        this.unreachable();
        this.again(this.maxBackoffMs);
      })
      .finally(() => {
        this.opening = false;
      });
  }

  private async open(): Promise<void> {
    const { default: WebSocket } = await import("ws");
    if (this.socket || !this.wanted) return;
    const withEvents = this.eventListener !== undefined;
    const query = withEvents
      ? `?events=1${this.lastEvent === undefined ? "" : `&after=${encodeURIComponent(this.lastEvent)}`}`
      : "";
    const url = `${this.http.address.baseUrl.replace(/^http/, "ws")}/daemon/live${query}`;
    const socket = new WebSocket(url, {
      headers: { authorization: `Bearer ${this.http.token()}` },
      handshakeTimeout: 5000,
    });
    this.socket = socket;
    this.withEvents = withEvents;
    this.opened++;
    let alive = true;
    let openedAt = 0;
    socket.on("open", () => {
      if (this.socket !== socket) return;
      openedAt = Date.now();
      this.connected = true;
      this.down = false;
      this.onNode.clear();
      this.pinger = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, pingEveryMs);
      this.pinger.unref();
      this.flush();
    });
    socket.on("pong", () => {
      alive = true;
    });
    socket.on("message", (data) => {
      alive = true;
      let frame: LiveNodeFrame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return; // A frame that is not JSON is not ours.
      }
      if (this.socket === socket) this.received(frame);
    });
    // An error is followed by a close: the close decides what comes next.
    socket.on("error", () => {});
    socket.on("close", () => {
      if (this.socket !== socket) return;
      const wasOpen = this.connected;
      this.socket = undefined;
      this.connected = false;
      this.onNode.clear();
      clearInterval(this.pinger);
      if (!this.wanted) return;
      // A stream that was up is asked for again at once (the node cut a slow reader, or restarts);
      // one that could not be had means the node is away. One that keeps dropping as soon as it
      // opens waits longer each time, as a failed one does.
      if (!wasOpen) this.unreachable();
      if (wasOpen && Date.now() - openedAt > steadyAfterMs) this.failures = 0;
      this.again(wasOpen && this.failures === 0 ? 0 : firstBackoffMs * 2 ** Math.min(this.failures, 10));
      this.failures++;
    });
  }

  private again(delayMs: number): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(
      () => {
        this.retry = undefined;
        this.connect();
      },
      Math.min(delayMs, this.maxBackoffMs),
    );
    this.retry.unref();
  }

  private received(frame: LiveNodeFrame): void {
    if (frame.type === "event") {
      if (!this.withEvents || !this.eventListener) return;
      this.lastEvent = frame.event.id;
      this.eventListener(frame.event);
      return;
    }
    const entry = this.entries.get(frame.id);
    if (!entry) return;
    if (frame.type === "status") {
      this.down = false;
      entry.status = { status: frame.status, limits: frame.limits };
      for (const listener of [...entry.listeners]) listener.status(frame.status, frame.limits);
    } else if (frame.type === "stats") {
      const { cpu, memory, disk } = frame;
      const stats = disk === undefined ? { cpu, memory } : { cpu, memory, disk };
      for (const listener of [...entry.listeners]) listener.stats(stats);
    } else if (frame.type === "gone") {
      this.onNode.delete(frame.id);
      this.entries.delete(frame.id);
      for (const listener of [...entry.listeners]) listener.gone();
      if (!this.wanted) this.shut();
    }
  }

  /** Said once per outage: what was known of the node's servers is not known any more. */
  private unreachable(): void {
    if (this.down) return;
    this.down = true;
    this.fresh.clear();
    for (const entry of [...this.entries.values()]) {
      entry.status = undefined;
      for (const listener of [...entry.listeners]) listener.unreachable();
    }
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      this.flush();
    });
  }

  /** Brings the node's set of streamed servers to the watched one, in at most two frames. */
  private flush(): void {
    if (!this.connected || !this.socket) return;
    const subscribe = [...this.entries.keys()].filter((id) => !this.onNode.has(id) || this.fresh.has(id));
    const unsubscribe = [...this.onNode].filter((id) => !this.entries.has(id));
    this.fresh.clear();
    this.send("unsubscribe", unsubscribe);
    this.send("subscribe", subscribe);
    for (const id of unsubscribe) this.onNode.delete(id);
    for (const id of subscribe) this.onNode.add(id);
  }

  /** In frames within the contract's bound on ids. */
  private send(type: LiveRequestFrame["type"], ids: string[]): void {
    for (let at = 0; at < ids.length; at += maxIdsPerLiveFrame) {
      const frame: LiveRequestFrame = { type, ids: ids.slice(at, at + maxIdsPerLiveFrame) };
      this.socket?.send(JSON.stringify(frame));
    }
  }

  private shut(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    clearInterval(this.pinger);
    const socket = this.socket;
    this.socket = undefined;
    this.connected = false;
    this.down = false;
    this.failures = 0;
    this.withEvents = false;
    this.onNode.clear();
    this.fresh.clear();
    if (socket) {
      if (socket.readyState === socket.CONNECTING) socket.terminate();
      else socket.close();
    }
  }
}
